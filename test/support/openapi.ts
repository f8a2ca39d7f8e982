// Checking real answers against the OpenAPI document (openapi.json, or the one a server serves):
// the status must be documented for the operation, and the body and headers must validate
// against the documented response (ajv, JSON Schema 2020-12 as OpenAPI 3.1 uses).
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { expect } from 'vitest';

export const DOCUMENT_ID = 'https://hookline.invalid/openapi.json';

interface OpenApiResponse {
  headers?: Record<string, { required?: boolean; schema: object } | { $ref: string }>;
  content?: Record<string, { schema: object }>;
}
export interface OpenApiDocument {
  openapi: string;
  paths: Record<
    string,
    Record<string, { responses: Record<string, OpenApiResponse | { $ref: string }>; security?: unknown[]; requestBody?: unknown }>
  >;
  components: {
    headers: Record<string, { required?: boolean; schema: object }>;
    responses?: Record<string, OpenApiResponse>;
    schemas: Record<string, object>;
  };
}

/** A JSON pointer segment (RFC 6901). */
export const pointer = (segment: string) => segment.replaceAll('~', '~0').replaceAll('/', '~1');

export interface DocumentChecker {
  document: OpenApiDocument;
  ajv: Ajv2020;
  /** The validator of the schema at `location` (a JSON pointer into the document, `#/…`). */
  schemaAt(location: string): ValidateFunction;
  /** Asserts that `response` (whose body was read as `text`) is a documented answer of `method route`. */
  expectDocumented(route: string, method: string, response: Response, text: string): void;
}

export function documentChecker(document: OpenApiDocument): DocumentChecker {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats.default(ajv);
  // The document's own members are not JSON Schema keywords; the schemas inside are checked strictly.
  ajv.addVocabulary(['openapi', 'info', 'jsonSchemaDialect', 'servers', 'paths', 'components', 'security', 'tags']);
  ajv.addSchema(document, DOCUMENT_ID);

  function resolve<T>(value: T | { $ref: string }): T {
    if (typeof value === 'object' && value !== null && '$ref' in value) {
      const target = value.$ref
        .replace(/^#\//, '')
        .split('/')
        .reduce<any>((node, key) => node[key.replaceAll('~1', '/').replaceAll('~0', '~')], document);
      return target as T;
    }
    return value;
  }

  const schemaAt = (location: string) => ajv.getSchema(`${DOCUMENT_ID}${location}`)!;

  function expectDocumented(route: string, method: string, response: Response, text: string) {
    const operation = document.paths[route]?.[method];
    expect(operation, `${method} ${route} is documented`).toBeDefined();
    const documented = operation!.responses[String(response.status)];
    expect(documented, `${response.status} is documented for ${method} ${route}: ${text}`).toBeDefined();
    const answer = resolve(documented!);
    const location = '$ref' in documented! ? documented.$ref : `#/paths/${pointer(route)}/${method}/responses/${response.status}`;

    const mediaType = response.headers.get('content-type')?.split(';')[0];
    if (mediaType === undefined) expect({ text, documentedContent: answer.content }).toEqual({ text: '', documentedContent: undefined });
    else expect(Object.keys(answer.content ?? {})).toContain(mediaType);
    if (mediaType === 'application/json') {
      const validate = schemaAt(`${location}/content/${pointer(mediaType)}/schema`);
      expect(validate(JSON.parse(text)), `${text} ${JSON.stringify(validate.errors)}`).toBe(true);
    }

    for (const [name, header] of Object.entries(answer.headers ?? {}).map(([name, header]) => [name, resolve(header)] as const)) {
      const value = response.headers.get(name);
      if (header.required) expect(value, `${name} on ${response.status}`).not.toBeNull();
      if (value !== null) {
        const valid = ajv.validate(header.schema, /^\d+$/.test(value) ? Number(value) : value);
        expect(valid, `${name}: ${value} ${JSON.stringify(ajv.errors)}`).toBe(true);
      }
    }
  }

  return { document, ajv, schemaAt, expectDocumented };
}
