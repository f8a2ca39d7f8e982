// What the routes' own descriptions (their `schema`) share: the REST error shape by codes, the
// rate-limit headers, the answers of the HTTP layer and of every ingest route. openapi.ts collects
// the descriptions into the OpenAPI document.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { ZodOpenApiResponseObject, ZodOpenApiResponsesObject } from 'zod-openapi';
import { INGEST_BODY_LIMIT_BYTES } from './json-body.ts';

declare module 'fastify' {
  interface FastifySchema {
    operationId?: string;
    summary?: string;
    description?: string;
    /** The credentials the route takes: names of `components.securitySchemes`. */
    security?: Record<string, string[]>[];
  }
}

/** A route's answers: `response` of its `schema`. */
export type RouteResponses = ZodOpenApiResponsesObject;

/** The error shape with `code` one of `codes`. */
export function errorSchema(codes: readonly string[]): z.ZodType {
  const codeIsOneOf = {
    type: 'object' as const,
    properties: { error: { type: 'object' as const, properties: { code: { enum: [...codes] } } } },
  };
  return z.unknown().meta({ override: { allOf: [{ $ref: '#/components/schemas/Error' }, codeIsOneOf] } });
}

type ResponseHeaders = Record<string, { $ref: string }>;

export function jsonResponse(description: string, schema: z.ZodType, headers: ResponseHeaders = {}): ZodOpenApiResponseObject {
  return { description, ...(Object.keys(headers).length > 0 ? { headers } : {}), content: { 'application/json': { schema } } };
}

export function errorResponse(description: string, codes: readonly string[], headers: ResponseHeaders = {}) {
  return jsonResponse(description, errorSchema(codes), headers);
}

const header = (name: string) => ({ $ref: `#/components/headers/${name}` });
export const RATE_LIMIT_HEADERS = {
  'RateLimit-Limit': header('RateLimit-Limit'),
  'RateLimit-Remaining': header('RateLimit-Remaining'),
  'RateLimit-Reset': header('RateLimit-Reset'),
};
export const RETRY_AFTER = { 'Retry-After': header('Retry-After') };

/** Answers any route can give: they come from the HTTP layer, not from the route. */
export const TRANSPORT_RESPONSES = {
  '408': { $ref: '#/components/responses/RequestTimeout' },
  '431': { $ref: '#/components/responses/HeadersTooLarge' },
  '500': { $ref: '#/components/responses/InternalError' },
  '503': { $ref: '#/components/responses/Unavailable' },
};

export const NOT_FOUND = { $ref: '#/components/responses/NotFound' };

export const RATE_LIMITED = errorResponse('Over the per-IP rate limit', ['rate_limited'], { ...RATE_LIMIT_HEADERS, ...RETRY_AFTER });

export const payloadTooLarge = (limit: number) =>
  errorResponse(`Body over ${limit} bytes, by Content-Length or counted while it streams in; checked first`, ['payload_too_large']);

export const BODY_ERRORS = ['invalid_json', 'validation_failed', 'invalid_content_length', 'bad_request'] as const;

export const UNSUPPORTED_MEDIA_TYPE = 'Content-Type is not application/json, or declares a charset other than utf-8';

export const INVALID_DEPLOY_TOKEN = errorResponse(
  'X-Deploy-Token missing, malformed, unknown or revoked',
  ['invalid_deploy_token'],
  RATE_LIMIT_HEADERS,
);

/** The answers of an ingest route, in the order its checks run; `success` is its 200 (or `successStatus`). */
export function ingestResponses(
  success: ZodOpenApiResponseObject,
  badRequestCodes: readonly string[],
  {
    unauthorized = INVALID_DEPLOY_TOKEN,
    successStatus = '200',
    badRequest = errorResponse('The body is not JSON, or a field or header is invalid', badRequestCodes, RATE_LIMIT_HEADERS),
  }: { unauthorized?: ZodOpenApiResponseObject; successStatus?: `2${string}`; badRequest?: ZodOpenApiResponseObject } = {},
): RouteResponses {
  return {
    [successStatus]: success,
    '400': badRequest,
    '401': unauthorized,
    '413': payloadTooLarge(INGEST_BODY_LIMIT_BYTES),
    '415': errorResponse(UNSUPPORTED_MEDIA_TYPE, ['unsupported_media_type'], RATE_LIMIT_HEADERS),
    '429': RATE_LIMITED,
    ...TRANSPORT_RESPONSES,
  };
}

/**
 * Route schemas are descriptions here, not checks: every route reads and validates its own input
 * in the contract's order (the token's 401 before the content's 415 and 400, ingest bodies as raw
 * bytes), which Fastify's validation, run before the handler, cannot keep. Answers are sent as
 * the handlers write them (what Fastify does for a route without a response schema).
 */
export function describeRoutesOnly(app: FastifyInstance): void {
  app.setValidatorCompiler(() => (value) => ({ value }));
  app.setSerializerCompiler(() => JSON.stringify);
}
