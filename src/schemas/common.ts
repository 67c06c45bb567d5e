/**
 * Shapes shared by every area: the spec's three envelopes (part 2), list queries (D7),
 * timestamps and ids (D2). One source for validation, OpenAPI and conformance.
 */
import { z } from '@hono/zod-openapi';
import { ErrorDetail } from '../errors.js';

/** One entry of an error's `details`: the error model owns it (errors.ts); the package's `schemas.common` names it too. */
export { ErrorDetail };

/** ISO 8601 UTC with milliseconds, as `2026-11-21T10:00:00.000Z`. */
export const IsoTimestamp = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/, 'an ISO 8601 UTC timestamp with milliseconds')
  .openapi({ example: '2026-11-21T10:00:00.000Z' });

function makeIdSchema(prefix: string) {
  return z
    .string()
    .regex(new RegExp(`^${prefix}_[0-9A-Za-z]+$`), `an id starting with ${prefix}_`)
    .openapi({ example: `${prefix}_4f8Qm2xZb7LkP1sT9vRa` });
}

/** The id schema of each prefix, made once: some 50 fields share 20 prefixes, and a zod schema is costly to make at start. */
const idSchemas = new Map<string, ReturnType<typeof makeIdSchema>>();

/** An id of one type: prefix, underscore, base62. Schemas are immutable, so one serves every field of that type. */
export function idOf(prefix: string) {
  let schema = idSchemas.get(prefix);
  if (schema === undefined) idSchemas.set(prefix, (schema = makeIdSchema(prefix)));
  return schema;
}

/** A duration string (D2): 90s, 15m, 2h, 7d. */
export const Duration = z
  .string()
  .regex(/^\d+(\.\d+)?(ms|s|m|h|d)$/, 'a duration such as 90s, 15m, 2h or 7d')
  .openapi({ example: '24h' });

/** The error envelope (spec part 2). */
export const ErrorEnvelope = z.object({ error: z.string(), code: z.string(), details: z.array(ErrorDetail) }).openapi('Error');

/** The success envelope (spec part 2): `{ data }`. */
export function envelope<T extends z.ZodType>(data: T) {
  return z.object({ data });
}

/** The paginated envelope's fields beside `data` (spec part 2). */
export const PageFields = z.object({
  total: z.number().int().min(0),
  page: z.number().int().min(1),
  pageSize: z.number().int().min(1),
  hasMore: z.boolean(),
});

/** The paginated envelope (spec part 2). */
export function paginated<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item), ...PageFields.shape });
}

/** One page of `T` as the paginated envelope answers it: `z.infer` of `paginated()`'s fields. */
export type Page<T> = z.infer<typeof PageFields> & { data: T[] };

/** A list answer that is not paginated (D7): `{ data: [...] }`. */
export function list<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item) });
}

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

const positiveIntegerText = (name: string, max?: number) =>
  z
    .string()
    .regex(/^\d+$/, `${name} must be a whole number`)
    .transform(Number)
    .pipe(
      max === undefined
        ? z.number().int().min(1, `${name} must be at least 1`)
        : z.number().int().min(1, `${name} must be at least 1`).max(max, `${name} must be at most ${max}`),
    );

/** `page` (1-based, default 1) and `page_size` (default 20, max 100): anything else is 400 (D7). */
export const PageQuery = z.object({
  page: positiveIntegerText('page')
    .optional()
    .openapi({ param: { name: 'page', in: 'query', example: 1 }, type: 'integer', minimum: 1, default: 1, example: 1 }),
  page_size: positiveIntegerText('page_size', MAX_PAGE_SIZE)
    .optional()
    .openapi({
      param: { name: 'page_size', in: 'query', example: DEFAULT_PAGE_SIZE },
      type: 'integer',
      minimum: 1,
      maximum: MAX_PAGE_SIZE,
      default: DEFAULT_PAGE_SIZE,
      example: DEFAULT_PAGE_SIZE,
    }),
});

const PathId = z.string().min(1).max(200);

export const IdParam = z.object({ id: PathId.openapi({ param: { name: 'id', in: 'path' } }) });

/**
 * A path or query parameter with its example, in the parameter (where Dredd and Postman read it)
 * and in its schema (where generators and Prism do): `example` as the document shows it, so a
 * query's `page` is the number 1 although the query string carries the text.
 */
export function paramExample<T extends z.ZodType>(schema: T, name: string, place: 'path' | 'query', example: string | number | boolean): T {
  return schema.openapi({ param: { name, in: place, example }, example });
}

/** IdParam with the id of the record the operation's examples name (operations/examples.ts). */
export function idParam(example: string) {
  return z.object({ id: paramExample(PathId, 'id', 'path', example) });
}

/**
 * Error responses for OpenAPI, keyed by status: those an operation's own service can answer.
 * The ones every operation shares (400, 401, 413, 429, 500, 503) are added to the document
 * by rule (routes/openapi-responses.ts); a status given here replaces the shared one.
 */
export function errorResponses(...statuses: Array<number | [number, string]>) {
  const descriptions: Record<number, string> = {
    400: 'Bad request or validation error',
    403: 'Forbidden (MFA required or not permitted)',
    404: 'Not found',
    409: 'Conflict (duplicate, or not in the state the call needs)',
    410: 'Gone (expired or ended)',
    503: 'Unavailable',
  };
  const responses: Record<string, { description: string; content: { 'application/json': { schema: typeof ErrorEnvelope } } }> = {};
  for (const entry of statuses) {
    const [status, description] = typeof entry === 'number' ? [entry, descriptions[entry] ?? 'Error'] : entry;
    responses[String(status)] = { description, content: { 'application/json': { schema: ErrorEnvelope } } };
  }
  return responses;
}

/** A required JSON body; `example` is one a tool can send as it is (operations/examples.ts). */
export function jsonBody<T extends z.ZodType>(schema: T, example?: z.input<T>, description?: string) {
  return {
    body: {
      required: true as const,
      content: { 'application/json': { schema, ...withExample(example) } },
      ...(description === undefined ? {} : { description }),
    },
  };
}

/** `{ example }` for a media type, or nothing when there is none. */
function withExample(example: unknown): { example?: unknown } {
  return example === undefined ? {} : { example };
}

/** The body of an action that takes none: `{}`, or nothing at all. */
export const EmptyBody = z.object({}).openapi('EmptyBody', { description: 'An empty object; the body may also be left out' });

/** A JSON body that may be left out; when sent, it must match the schema. */
export function optionalJsonBody<T extends z.ZodType>(schema: T, example?: z.input<T>) {
  return { body: { required: false as const, content: { 'application/json': { schema, ...withExample(example) } } } };
}

/** A JSON answer; `example` is the answer the operation's example request gets (operations/examples.ts). */
export function jsonResponse<T extends z.ZodType>(schema: T, description: string, example?: z.output<T>) {
  return { description, content: { 'application/json': { schema, ...withExample(example) } } };
}
