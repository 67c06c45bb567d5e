/**
 * Hostile requests for the property tests (D6): fast-check arbitraries for a request to
 * one route, with random and malformed bodies, query strings, path ids and headers (huge,
 * non-UTF-8, prototype-pollution keys, deep nesting, wrong content types), and a raw HTTP
 * sender that puts exactly those bytes on the wire (fetch would refuse or normalise some).
 */
import { request as httpRequest } from 'node:http';
import fc from 'fast-check';

/** A route as the app registers it: `/v1/apps/:id`. */
export interface Route {
  method: string;
  path: string;
}

export interface HostileRequest {
  method: string;
  /** Path and query, percent-encoded or deliberately malformed, always ASCII. */
  target: string;
  headers: Record<string, string>;
  body: Buffer | null;
}

/** What the generators draw ids, keys and tokens from. */
export interface HostileContext {
  /** Known good values: ids of the caller's and the other tenant's records, the keys, a session token. */
  ids: string[];
  apiKeys: string[];
  bearer: string[];
  /** Body field names per `METHOD /path` (from the OpenAPI document), for bodies that get past the first checks. */
  fieldsOf(route: Route): string[];
}

export const POLLUTING_KEYS = ['__proto__', 'constructor', 'prototype'] as const;
/** A field no schema declares: it must never reach a stored record. */
export const UNKNOWN_FIELD = 'fuzzUnknownField';
const MARKER = 'fuzz-marker';

const latin1 = fc.string({ unit: fc.integer({ min: 0x80, max: 0xff }).map((code) => String.fromCharCode(code)), minLength: 1, maxLength: 20 });
const huge = fc.integer({ min: 4_000, max: 12_000 }).map((n) => 'x'.repeat(n));

const weirdText = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme' }),
  fc.constantFrom(
    '',
    ' ',
    '0',
    '-1',
    '1e309',
    'NaN',
    'null',
    'true',
    '[]',
    '{}',
    '%',
    '%FF',
    '\u0000',
    '../../etc/passwd',
    '<script>',
    'javascript:alert(1)',
    'file:///etc/passwd',
    'ftp://127.0.0.1/',
    'http://127.0.0.1:9/hook',
    'https://example.com/x',
    '*',
    'user.created',
    '24h',
    '-5m',
    '90s',
    'pro',
    'free',
    'enterprise',
    'sk_test_',
    '2026-11-21T10:00:00.000Z',
    'a@b.c',
    MARKER,
  ),
);

/** Plausible values for a field, so some bodies reach the rules behind validation. */
const fieldValue = fc.oneof(
  weirdText,
  fc.emailAddress(),
  fc.webUrl(),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(weirdText, { maxLength: 4 }),
  fc.dictionary(fc.oneof(fc.string(), fc.constantFrom(...POLLUTING_KEYS)), weirdText, { maxKeys: 4 }),
  fc.jsonValue({ maxDepth: 3 }),
);

/** A JSON object written by hand, so `__proto__` stays an ordinary key on the wire, duplicates allowed. */
function objectText(entries: Array<[string, unknown]>): string {
  return `{${entries.map(([key, value]) => `${JSON.stringify(key)}:${JSON.stringify(value) ?? 'null'}`).join(',')}}`;
}

function nested(depth: number, kind: 'array' | 'object'): string {
  return kind === 'array' ? `${'['.repeat(depth)}${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

function bodyArbitrary(fields: string[]): fc.Arbitrary<{ body: Buffer | null; json: boolean }> {
  const known = fields.length > 0 ? fc.constantFrom(...fields) : fc.string();
  const key = fc.oneof(
    { weight: 6, arbitrary: known },
    { weight: 2, arbitrary: fc.constantFrom(...POLLUTING_KEYS, UNKNOWN_FIELD) },
    { weight: 1, arbitrary: fc.string() },
  );
  const pollution = fc.constantFrom<unknown>({ polluted: MARKER }, MARKER, [MARKER], { [UNKNOWN_FIELD]: MARKER });
  const text = (value: string) => ({ body: Buffer.from(value, 'utf8'), json: true });
  return fc.oneof(
    { weight: 8, arbitrary: fc.array(fc.tuple(key, fc.oneof(fieldValue, pollution)), { maxLength: 8 }).map((entries) => text(objectText(entries))) },
    { weight: 2, arbitrary: fc.jsonValue().map((value) => text(JSON.stringify(value) ?? 'null')) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.integer({ min: 500, max: 200_000 }), fc.constantFrom<'array' | 'object'>('array', 'object'))
        .map(([depth, kind]) => text(nested(depth, kind))),
    },
    { weight: 2, arbitrary: fc.string().map((value) => text(value)) },
    { weight: 1, arbitrary: fc.constantFrom('{"a":', '{"email":"x@y.z"', '[1,2,', '{"__proto__":', 'nul', '\uFEFF{}').map(text) },
    {
      weight: 1,
      arbitrary: fc
        .uint8Array({ minLength: 1, maxLength: 64 })
        .map((bytes) => ({ body: Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xff, 0xfe]), Buffer.from(bytes), Buffer.from('"}')]), json: true })),
    },
    { weight: 1, arbitrary: fc.constant({ body: null, json: false }) },
    { weight: 1, arbitrary: fc.constantFrom(1024 * 1024 + 1, 3 * 1024 * 1024).map((size) => text(`{"name":"${'a'.repeat(size)}"}`)) },
    { weight: 1, arbitrary: fc.constant({ body: Buffer.from('name=x&__proto__[polluted]=1&constructor[prototype][polluted]=1'), json: false }) },
  );
}

const contentType = fc.oneof(
  { weight: 8, arbitrary: fc.constant('application/json') },
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      'application/json; charset=utf-8',
      'application/json; charset=latin1',
      'application/merge-patch+json',
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/xml',
      '*/*',
      ';;;',
      'application/json\t',
    ),
  },
  { weight: 1, arbitrary: latin1 },
  { weight: 1, arbitrary: huge },
  { weight: 2, arbitrary: fc.constant(undefined) },
);

function pathSegment(context: HostileContext): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...context.ids).map(encodeURIComponent) },
    { weight: 3, arbitrary: fc.string({ minLength: 1 }).map(encodeURIComponent) },
    { weight: 2, arbitrary: fc.constantFrom(...POLLUTING_KEYS, '%FF%FE', '%', '%zz', '%00', '..', '.', '..%2F..%2Fetc', '%2F', 'me', 'x'.repeat(5000)) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength: 1 }).map(encodeURIComponent) },
  );
}

const queryKey = fc.oneof(
  fc.constantFrom(
    'page',
    'page_size',
    'search',
    'trust_level',
    'status',
    'period',
    'email',
    'type',
    'tenant',
    'limit',
    ...POLLUTING_KEYS,
    '__proto__[polluted]',
    'page[]',
    '',
  ),
  fc.string(),
);
const queryValue = fc.oneof(
  weirdText.map(encodeURIComponent),
  fc.constantFrom('%', '%FF', '%E0%A4%A', 'x'.repeat(5000), '1&page=2', '-1', '0', '101', '1.5', 'verified', '7d', 'dead'),
);
const queryString = fc
  .array(fc.tuple(queryKey, queryValue), { maxLength: 5 })
  .map((pairs) => (pairs.length === 0 ? '' : `?${pairs.map(([k, v]) => `${encodeURIComponent(k)}=${v}`).join('&')}`));

/** A hostile request aimed at `route`: mostly its own method and path shape, everything else random. */
export function hostileRequest(route: Route, context: HostileContext): fc.Arbitrary<HostileRequest> {
  const params = route.path.split('/').filter((part) => part.startsWith(':')).length;
  const method = fc.oneof(
    { weight: 9, arbitrary: fc.constant(route.method) },
    { weight: 1, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS') },
  );
  const apiKey = fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...context.apiKeys) },
    { weight: 1, arbitrary: fc.constantFrom(undefined, '', 'sk_test_', 'sk_test_00000000000000000000000000000000') },
    { weight: 1, arbitrary: fc.oneof(fc.string(), latin1, huge) },
  );
  const authorization = fc.oneof(
    { weight: 4, arbitrary: fc.constant(undefined) },
    { weight: 4, arbitrary: fc.constantFrom(...context.bearer).map((token) => `Bearer ${token}`) },
    { weight: 1, arbitrary: fc.oneof(fc.string(), latin1, huge, fc.constantFrom('Bearer', 'Bearer ', 'Basic Zm9vOmJhcg==', 'Bearer st_x')) },
  );
  const extraHeaders = fc.dictionary(
    fc.constantFrom(...POLLUTING_KEYS, 'x-request-id', 'accept', 'accept-encoding', 'x-forwarded-for', 'origin', 'x-fuzz'),
    fc.oneof(
      fc.string().filter((s) => /^[\t\x20-\x7e]*$/.test(s)),
      latin1,
      huge,
      fc.constantFrom('127.0.0.1', 'gzip, br', 'text/html'),
    ),
    { maxKeys: 3 },
  );
  return fc
    .record({
      method,
      segments: fc.array(pathSegment(context), { minLength: params, maxLength: params }),
      query: queryString,
      body: bodyArbitrary(context.fieldsOf(route)),
      contentType,
      apiKey,
      authorization,
      extraHeaders,
    })
    .map(({ method: verb, segments, query, body, contentType: type, apiKey: key, authorization: auth, extraHeaders: extra }) => {
      let index = 0;
      const path = route.path.replace(/:[\w]+/g, () => segments[index++] ?? 'x');
      const headers: Record<string, string> = Object.create(null) as Record<string, string>;
      for (const [name, value] of Object.entries(extra)) headers[name] = value;
      if (key !== undefined) headers['x-api-key'] = key;
      if (auth !== undefined) headers['authorization'] = auth;
      if (type !== undefined && (body.body !== null || body.json)) headers['content-type'] = type;
      return { method: verb, target: `${path}${query}`, headers, body: body.body };
    });
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** Sends exactly these bytes (latin1 header values included) with node:http. */
export function sendRaw(origin: string, request: HostileRequest): Promise<RawResponse> {
  const url = new URL(origin);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method: request.method,
        path: request.target,
        // node:http frames a DELETE or GET body only when told its length.
        headers: { ...request.headers, ...(request.body === null ? {} : { 'content-length': String(request.body.byteLength) }) },
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(request.body ?? undefined);
  });
}
