/**
 * The answers every operation shares, added to the OpenAPI document in one place rather than
 * in each route: 400, 401, 408, 413, 429, 431, 500 and 503 follow from what the HTTP server,
 * the store and the middleware in front of every /v1 route do (D3, D6, D12, D16), so
 * they are given by rule, not by hand. The routes declare only what their own service can answer (403, 404,
 * 409, 410 …).
 */
import type { OpenAPIHono } from '@hono/zod-openapi';

export type OpenApiObject = ReturnType<OpenAPIHono['getOpenAPI31Document']>;
type PathItem = NonNullable<OpenApiObject['paths']>[string];
export type Operation = NonNullable<PathItem['get']>;
type Components = NonNullable<OpenApiObject['components']>;

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** Methods whose body the JSON body middleware reads (413 over 1 MiB, 400 when not JSON). */
const BODY_METHODS = new Set(['post', 'put', 'patch', 'delete']);

const ERROR_CONTENT = { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } };
const ref = (name: string) => ({ $ref: `#/components/responses/${name}` });
const header = (name: string) => ({ $ref: `#/components/headers/${name}` });

const RATE_LIMIT_HEADERS = {
  'RateLimit-Limit': header('RateLimitLimit'),
  'RateLimit-Remaining': header('RateLimitRemaining'),
  'RateLimit-Reset': header('RateLimitReset'),
};

/** The shared responses and headers, for `components`. */
export const SHARED_COMPONENTS: Pick<Components, 'responses' | 'headers'> = {
  responses: {
    BadRequest: {
      description: 'validation_error (details hold { path, message, in } per field), invalid_json, or bad_request for a request that is not valid HTTP',
      content: ERROR_CONTENT,
    },
    RequestTimeout: { description: 'request_timeout: the request took too long to arrive', content: ERROR_CONTENT },
    HeadersTooLarge: { description: 'headers_too_large: the request headers are over 16 KiB', content: ERROR_CONTENT },
    Unauthorized: {
      description: 'missing_api_key or invalid_api_key; where a session is needed, missing_session or invalid_session',
      content: ERROR_CONTENT,
    },
    PayloadTooLarge: { description: 'payload_too_large: the body is larger than 1 MiB', content: ERROR_CONTENT },
    RateLimited: {
      description: 'rate_limited: the API key spent its requests per second (on MFA challenge and verify also mfa_locked)',
      headers: { 'Retry-After': header('RetryAfter'), ...RATE_LIMIT_HEADERS },
      content: ERROR_CONTENT,
    },
    InternalError: { description: 'internal_error, never with a stack trace', content: ERROR_CONTENT },
    Unavailable: {
      description:
        'store_unavailable: a change could not be written to the data dir; any call may also meet 503 while the service cannot serve it (as with a fault injected through /_emulator/faults)',
      content: ERROR_CONTENT,
    },
  },
  headers: {
    RetryAfter: { description: 'Seconds to wait before trying again', required: true, schema: { type: 'integer', minimum: 0 } },
    RateLimitLimit: { description: 'Requests the API key may make in a burst', schema: { type: 'integer', minimum: 0 } },
    RateLimitRemaining: { description: 'Whole requests left in the burst now', schema: { type: 'integer', minimum: 0 } },
    RateLimitReset: { description: 'Seconds until the burst is full again', schema: { type: 'integer', minimum: 0 } },
  },
};

/** Adds the shared answers to one operation; a status the route declared itself is kept as it is. */
function addSharedResponses(method: string, operation: Operation): void {
  const keyed = (operation.security ?? []).some((requirement) => 'ApiKeyAuth' in requirement);
  // 400 bad_request, 408 and 431 come from the HTTP server, before any route, and 503 from a
  // store that cannot write or a service that cannot serve: every operation can meet them.
  const shared: Array<[string, string, boolean]> = [
    ['400', 'BadRequest', true],
    ['401', 'Unauthorized', keyed],
    ['408', 'RequestTimeout', true],
    ['413', 'PayloadTooLarge', BODY_METHODS.has(method)],
    ['429', 'RateLimited', keyed],
    ['431', 'HeadersTooLarge', true],
    ['500', 'InternalError', true],
    ['503', 'Unavailable', true],
  ];
  const responses: NonNullable<Operation['responses']> = { ...operation.responses };
  for (const [status, name, applies] of shared) if (applies && responses[status] === undefined) responses[status] = ref(name);
  operation.responses = Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)));
  if (!keyed) return;
  for (const status of Object.keys(operation.responses)) {
    const response = operation.responses[status] as { $ref?: string; headers?: Record<string, unknown> };
    if (/^2\d\d$/.test(status) && response.$ref === undefined) response.headers = { ...RATE_LIMIT_HEADERS, ...response.headers };
  }
}

/** Adds the shared answers to every operation of the document and their components. */
export function withSharedResponses(doc: OpenApiObject): OpenApiObject {
  for (const item of Object.values(doc.paths ?? {})) {
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (operation) addSharedResponses(method, operation);
    }
  }
  doc.components = { ...doc.components, ...SHARED_COMPONENTS };
  return doc;
}
