/**
 * The answers every operation shares, added to the OpenAPI document in one place rather than
 * in each route: 400, 401, 408, 413, 429, 431, 500 and 503 follow from what the HTTP server,
 * the store and the middleware in front of every /v1 route do (D3, D6, D12, D16), so
 * they are given by rule, not by hand. The routes declare only what their own service can answer (403, 404,
 * 409, 410 …).
 *
 * Then every error answer of every operation names its codes (docs/openapi.md#error-codes): the
 * codes the operation meets by rule (shared-error-codes.ts) and those it answers of its own
 * (operations/error-codes.ts), each status's schema narrowing `code` to its own, with one named
 * example per code. A shared answer whose codes are the same for every operation stays a
 * `$ref` to `components.responses`; one whose codes differ is written out on the operation.
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import { ERROR_CODES, type ErrorCode } from '../errors.js';
import { OWN_ERROR_CODES, type ErrorExample } from '../operations/error-codes.js';
import { ruleCodes, type CodeExamples } from './shared-error-codes.js';

export type OpenApiObject = ReturnType<OpenAPIHono['getOpenAPI31Document']>;
type PathItem = NonNullable<OpenApiObject['paths']>[string];
export type Operation = NonNullable<PathItem['get']>;
type Components = NonNullable<OpenApiObject['components']>;
type ResponseObject = { $ref?: string; description?: string; headers?: Record<string, unknown>; content?: Record<string, unknown> };

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** Methods whose body the JSON body middleware reads (413 over 1 MiB, 400 when not JSON). */
const BODY_METHODS = new Set(['post', 'put', 'patch', 'delete']);

const ERROR_SCHEMA = { $ref: '#/components/schemas/Error' };
const ref = (name: string) => ({ $ref: `#/components/responses/${name}` });
const header = (name: string) => ({ $ref: `#/components/headers/${name}` });

const RATE_LIMIT_HEADERS = {
  'RateLimit-Limit': header('RateLimitLimit'),
  'RateLimit-Remaining': header('RateLimitRemaining'),
  'RateLimit-Reset': header('RateLimitReset'),
};

/** The error envelope of one example, as svc answers it. */
function envelopeOf(code: ErrorCode, example: ErrorExample) {
  return typeof example === 'string' ? { error: example, code, details: [] } : { error: example.message, code, details: example.details };
}

/** The body of an error answer: the envelope with `code` narrowed to `codes`, and one named example per code. */
export function errorContent(examples: CodeExamples) {
  const codes = (Object.keys(examples) as ErrorCode[]).sort();
  return {
    'application/json': {
      schema: { allOf: [ERROR_SCHEMA, { type: 'object', required: ['code'], properties: { code: { type: 'string', enum: codes } } }] },
      examples: Object.fromEntries(codes.map((code) => [code, { summary: code, value: envelopeOf(code, examples[code]!) }])),
    },
  };
}

/**
 * The shared answers: name, status and codes. An operation's answer at that status is a
 * `$ref` to it when the operation meets exactly these codes there, and written out otherwise.
 */
const SHARED: ReadonlyArray<{ name: string; status: string; description: string; codes: ErrorCode[]; headers?: Record<string, unknown> }> = [
  {
    name: 'BadRequest',
    status: '400',
    description: 'validation_error (details hold { path, message, in } per field), or bad_request for a request that is not valid HTTP',
    codes: ['bad_request', 'validation_error'],
  },
  { name: 'Unauthorized', status: '401', description: 'missing_api_key or invalid_api_key', codes: ['invalid_api_key', 'missing_api_key'] },
  { name: 'RequestTimeout', status: '408', description: 'request_timeout: the request took too long to arrive', codes: ['request_timeout'] },
  { name: 'PayloadTooLarge', status: '413', description: 'payload_too_large: the body is larger than 1 MiB', codes: ['payload_too_large'] },
  {
    name: 'RateLimited',
    status: '429',
    description: 'rate_limited: the API key spent its requests per second',
    codes: ['rate_limited'],
    headers: { 'Retry-After': header('RetryAfter'), ...RATE_LIMIT_HEADERS },
  },
  { name: 'HeadersTooLarge', status: '431', description: 'headers_too_large: the request headers are over 16 KiB', codes: ['headers_too_large'] },
  { name: 'InternalError', status: '500', description: 'internal_error, never with a stack trace', codes: ['internal_error'] },
  {
    name: 'Unavailable',
    status: '503',
    description:
      'store_unavailable: a change could not be written to the data dir; any call may also meet 503 while the service cannot serve it (as with a fault injected through /_emulator/faults)',
    codes: ['store_unavailable'],
  },
];

/** What a path of the document answers a method it has no operation for; no operation lists it (it is no operation's answer). */
const METHOD_NOT_ALLOWED = {
  description:
    'method_not_allowed: the path is in this document, but not with this method; Allow lists the methods it has. Answered for any path of the document, so no operation lists it',
  headers: { Allow: header('Allow') },
  content: errorContent({ method_not_allowed: 'POST is not allowed on /v1/apps/app_4f8Qm2xZb7LkP1sT9vRa; it answers GET, PATCH, DELETE' }),
};

/** What the document says of the answers no operation lists, added to its description. */
const UNLISTED_ANSWERS =
  ' A path of this document asked with a method it has no operation for is answered 405 method_not_allowed with an Allow header (components.responses.MethodNotAllowed); a path it does not have is 404 not_found; a Host svc does not answer is 403 host_not_allowed. Every error answer narrows `code` to the codes the operation answers at that status, with one example each.';

/** The shared responses and headers, for `components`, each with its codes' examples. */
export function sharedComponents(): Pick<Components, 'responses' | 'headers'> {
  const responses: Record<string, unknown> = {};
  // A keyed operation's codes: those of one with a body (413), but a query's validation_error, as most operations have no body.
  const examples = { ...ruleCodes({ keyed: true, session: null, bodyField: '(body)' }), ...ruleCodes({ keyed: true, session: null, bodyField: undefined }) };
  for (const shared of SHARED) {
    const own = Object.fromEntries(shared.codes.map((code) => [code, examples[code]!]));
    responses[shared.name] = { description: shared.description, ...(shared.headers ? { headers: shared.headers } : {}), content: errorContent(own) };
  }
  responses['MethodNotAllowed'] = METHOD_NOT_ALLOWED;
  return {
    responses: responses as NonNullable<Components['responses']>,
    headers: {
      RetryAfter: { description: 'Seconds to wait before trying again', required: true, schema: { type: 'integer', minimum: 0 } },
      RateLimitLimit: { description: 'Requests the API key may make in a burst', schema: { type: 'integer', minimum: 0 } },
      RateLimitRemaining: { description: 'Whole requests left in the burst now', schema: { type: 'integer', minimum: 0 } },
      RateLimitReset: { description: 'Seconds until the burst is full again', schema: { type: 'integer', minimum: 0 } },
      Allow: { description: 'The methods the path answers, comma-separated', required: true, schema: { type: 'string' }, example: 'GET, PATCH, DELETE' },
    },
  };
}

/** The name of the first field the operation's JSON body requires, for its validation_error example. */
function firstRequiredField(doc: OpenApiObject, operation: Operation): string | undefined {
  const body = operation.requestBody as { content?: Record<string, { schema?: { $ref?: string; required?: string[] } }> } | undefined;
  const schema = body?.content?.['application/json']?.schema;
  const name = schema?.$ref?.replace('#/components/schemas/', '');
  const resolved = name === undefined ? schema : (doc.components?.schemas?.[name] as { required?: string[] } | undefined);
  return resolved?.required?.[0];
}

/** `a, b or c`. */
const listOf = (codes: string[]): string => (codes.length < 2 ? codes.join('') : `${codes.slice(0, -1).join(', ')} or ${codes.at(-1)!}`);

/** Every code the operation answers, rule's and its own, with their examples. */
export function operationCodes(doc: OpenApiObject, method: string, operation: Operation): CodeExamples {
  const names = (operation.security ?? []).flatMap((requirement) => Object.keys(requirement));
  const session = names.includes('DelegatedSessionAuth') ? 'delegated' : names.includes('SessionAuth') ? 'user' : null;
  const rules = ruleCodes({
    keyed: names.includes('ApiKeyAuth'),
    session,
    bodyField: BODY_METHODS.has(method) ? (firstRequiredField(doc, operation) ?? '(body)') : undefined,
  });
  return { ...rules, ...(OWN_ERROR_CODES[operation.operationId ?? ''] ?? {}) };
}

/** Adds the shared answers to one operation and names the codes of each error answer; a status the route declared itself keeps its description. */
function addErrorResponses(doc: OpenApiObject, method: string, operation: Operation): void {
  const keyed = (operation.security ?? []).some((requirement) => 'ApiKeyAuth' in requirement);
  const codes = operationCodes(doc, method, operation);
  const byStatus = new Map<string, CodeExamples>();
  for (const [code, example] of Object.entries(codes) as Array<[ErrorCode, ErrorExample]>) {
    const status = String(ERROR_CODES[code]);
    byStatus.set(status, { ...byStatus.get(status), [code]: example });
  }
  const responses = { ...operation.responses } as Record<string, ResponseObject>;
  for (const [status, examples] of byStatus) {
    const shared = SHARED.find((entry) => entry.status === status);
    const declared = responses[status];
    const sameCodes = shared !== undefined && Object.keys(examples).sort().join() === shared.codes.join();
    if (declared === undefined && shared !== undefined && sameCodes) {
      responses[status] = ref(shared.name);
      continue;
    }
    const description = declared?.description ?? (sameCodes ? shared.description : listOf(Object.keys(examples).sort()));
    const headers = declared?.headers ?? shared?.headers;
    responses[status] = { description, ...(headers ? { headers } : {}), content: errorContent(examples) };
  }
  const sorted = Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b))) as NonNullable<Operation['responses']>;
  operation.responses = sorted;
  if (!keyed) return;
  for (const status of Object.keys(sorted)) {
    const response = sorted[status] as ResponseObject;
    if (/^2\d\d$/.test(status) && response.$ref === undefined) response.headers = { ...RATE_LIMIT_HEADERS, ...response.headers };
  }
}

/** Adds the shared answers and each error answer's codes to every operation of the document, and their components. */
export function withSharedResponses(doc: OpenApiObject): OpenApiObject {
  for (const item of Object.values(doc.paths ?? {})) {
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (operation) addErrorResponses(doc, method, operation);
    }
  }
  const components = sharedComponents();
  doc.components = {
    ...doc.components,
    ...components,
    schemas: { ...doc.components?.schemas, ErrorCode: { type: 'string', enum: Object.keys(ERROR_CODES).sort(), description: 'Every code svc answers' } },
  };
  const error = doc.components.schemas?.['Error'] as { properties?: Record<string, unknown> } | undefined;
  if (error?.properties) error.properties['code'] = { $ref: '#/components/schemas/ErrorCode' };
  doc.info = { ...doc.info, description: `${doc.info.description ?? ''}${UNLISTED_ANSWERS}` };
  return doc;
}
