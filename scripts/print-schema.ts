// Writes schema.graphql from the Pothos builder (`npm run schema:print`); a test fails when
// the committed file and the builder disagree.
import { writeFile } from 'node:fs/promises';
import { printSchemaSdl } from '../src/graphql/schema.ts';

await writeFile(new URL('../schema.graphql', import.meta.url), printSchemaSdl());
console.log('Wrote schema.graphql');
