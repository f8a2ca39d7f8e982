// Writes openapi.json, the OpenAPI document of the REST routes with the default settings
// (`npm run openapi:print`); a test fails when the committed file and the code disagree.
import { writeFile } from 'node:fs/promises';
import { deliveryPolicy } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { printOpenApiDocument } from '../src/http/openapi.ts';

await writeFile(new URL('../openapi.json', import.meta.url), await printOpenApiDocument(deliveryPolicy(loadConfig({})).destination));
console.log('Wrote openapi.json');
