/**
 * The codes of the OpenAPI documents' error answers (docs/openapi.md#error-codes): every error
 * answer of every operation narrows `code` to an enum and has one named example per code, in
 * the error envelope; the table of each operation's own codes (operations/error-codes.ts) keeps
 * to the statuses its route declares; and a whole conformance run against a real emulator is
 * answered no code, at no status, that the document does not list for that operation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FetchLike } from '../src/client/transport.js';
import { CATALOGUE } from '../src/conformance/catalogue.js';
import { preflight } from '../src/conformance/preflight.js';
import { runSuite, type RunReport } from '../src/conformance/runner.js';
import { selectChecks } from '../src/conformance/select.js';
import { ERROR_CODES, type ErrorCode } from '../src/errors.js';
import { API_ERROR_CODES, CONTROL_ERROR_CODES } from '../src/operations/error-codes.js';
import { CONTROL_OPERATIONS, OPERATIONS, type Operation } from '../src/operations/index.js';
import { templateMatcher } from '../src/path-template.js';
import { ACME_KEY, GLOBEX_KEY, startTestEmulator, type TestEmulator } from '../src/test-support/harness.js';

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];
/** The statuses the document gives every operation that meets them, by rule (routes/openapi-responses.ts). */
const SHARED_STATUSES = new Set(['400', '401', '408', '413', '429', '431', '500', '503']);

type Example = { value: { error: unknown; code: unknown; details: unknown } };
type Media = { schema: { allOf?: unknown[] }; examples?: Record<string, Example> };
type Response = { $ref?: string; description?: string; headers?: Record<string, unknown>; content?: Record<string, Media> };
type Doc = {
  info: { description: string };
  paths: Record<string, Record<string, { operationId: string; responses: Record<string, Response> }>>;
  components: { responses: Record<string, Response>; schemas: Record<string, { properties?: Record<string, unknown>; enum?: string[] }> };
};

/** An operation's answer for a status, its $ref to components/responses followed. */
function resolved(doc: Doc, response: Response): Response {
  const name = response.$ref?.replace('#/components/responses/', '');
  return name === undefined ? response : doc.components.responses[name]!;
}

/** The codes an error answer narrows `code` to. */
function enumOf(response: Response): string[] {
  const narrowed = response.content?.['application/json']?.schema.allOf?.[1] as { properties?: { code?: { enum?: string[] } } } | undefined;
  return narrowed?.properties?.code?.enum ?? [];
}

/** Every error answer of a document: operationId, method, path, status and the answer. */
function errorAnswers(doc: Doc): Array<{ operationId: string; method: string; path: string; status: string; response: Response }> {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    METHODS.filter((method) => item[method] !== undefined).flatMap((method) =>
      Object.entries(item[method]!.responses)
        .filter(([status]) => !status.startsWith('2'))
        .map(([status, response]) => ({
          operationId: item[method]!.operationId,
          method: method.toUpperCase(),
          path,
          status,
          response: resolved(doc, response),
        })),
    ),
  );
}

/** The error statuses a route's createRoute() config declares itself. */
const declaredStatuses = (operation: Operation): string[] => Object.keys(operation.config.responses).filter((status) => !status.startsWith('2'));

let svc: TestEmulator;
let api: Doc;
let control: Doc;
beforeAll(async () => {
  svc = await startTestEmulator();
  api = (await (await fetch(`${svc.origin}/v1/openapi.json`)).json()) as Doc;
  control = (await (await fetch(`${svc.origin}/_emulator/openapi.json`)).json()) as Doc;
});
afterAll(() => svc.close());

describe('the error answers of the OpenAPI documents', () => {
  it.for(['api', 'control'] as const)('in the %s document: each narrows code to an enum, with one example per code in the error envelope', (which) => {
    const doc = which === 'api' ? api : control;
    const answers = errorAnswers(doc);
    expect(answers.length).toBeGreaterThan(100);
    for (const { operationId, status, response } of answers) {
      const where = `${operationId} ${status}`;
      const media = response.content?.['application/json'];
      expect(media?.schema.allOf?.[0], where).toEqual({ $ref: '#/components/schemas/Error' });
      const codes = enumOf(response);
      expect(codes.length, where).toBeGreaterThan(0);
      for (const code of codes) expect(String(ERROR_CODES[code as ErrorCode]), `${where} ${code}`).toBe(status);
      expect(Object.keys(media?.examples ?? {}).sort(), where).toEqual(codes);
      for (const [code, example] of Object.entries(media?.examples ?? {})) {
        expect(example.value.code, `${where} ${code}`).toBe(code);
        expect(example.value.error, `${where} ${code}`).toMatch(/\w{3,}/);
        expect(Array.isArray(example.value.details), `${where} ${code}`).toBe(true);
      }
    }
  });

  it('gives the whole catalogue as ErrorCode, the type of Error.code', () => {
    expect(api.components.schemas['ErrorCode']?.enum).toEqual(Object.keys(ERROR_CODES).sort());
    expect(api.components.schemas['Error']?.properties?.['code']).toEqual({ $ref: '#/components/schemas/ErrorCode' });
  });

  it('answers the codes of the session by rule where an operation takes one: 401 missing_session, 410 session_expired', () => {
    const codesAt = (path: string, method: string, status: string) => enumOf(resolved(api, api.paths[path]![method]!.responses[status]!));
    expect(codesAt('/v1/mfa/verify', 'post', '401')).toEqual(['invalid_api_key', 'invalid_session', 'missing_api_key', 'missing_session']);
    expect(codesAt('/v1/mfa/verify', 'post', '410')).toEqual(['challenge_expired', 'session_expired']);
    expect(codesAt('/v1/mfa/verify', 'post', '429')).toEqual(['mfa_locked', 'rate_limited']);
    expect(codesAt('/v1/apps', 'get', '400')).toEqual(['bad_request', 'validation_error']);
    expect(codesAt('/v1/apps', 'post', '400')).toEqual(['bad_request', 'invalid_json', 'validation_error']);
    expect(codesAt('/v1/custom-domains/verify', 'post', '503')).toEqual(['dns_unavailable', 'store_unavailable']);
  });

  it('names 405 method_not_allowed with Allow once, in components and the description, and on no operation', () => {
    const answer = api.components.responses['MethodNotAllowed']!;
    expect(answer.headers).toEqual({ Allow: { $ref: '#/components/headers/Allow' } });
    expect(enumOf(answer)).toEqual(['method_not_allowed']);
    expect(api.info.description).toMatch(/405 method_not_allowed with an Allow header/);
    expect(errorAnswers(api).filter((answer) => answer.status === '405')).toEqual([]);
  });

  it.for([
    ['api', OPERATIONS, API_ERROR_CODES],
    ['control', CONTROL_OPERATIONS, CONTROL_ERROR_CODES],
  ] as const)(
    'in the %s table: every status a route declares has codes, and every code of its own is at a status its route declares or shares',
    ([, operations, table]) => {
      const doc = operations === OPERATIONS ? api : control;
      const documented = new Map(errorAnswers(doc).map((answer) => [`${answer.operationId} ${answer.status}`, enumOf(answer.response)]));
      for (const [operationId, operation] of Object.entries(operations) as Array<[string, Operation]>) {
        for (const status of declaredStatuses(operation))
          expect(documented.get(`${operationId} ${status}`)?.length, `${operationId} ${status}`).toBeGreaterThan(0);
        for (const code of Object.keys((table as Record<string, object>)[operationId]!) as ErrorCode[]) {
          const status = String(ERROR_CODES[code]);
          expect(declaredStatuses(operation).includes(status) || SHARED_STATUSES.has(status), `${operationId}: ${code} (${status})`).toBe(true);
        }
      }
    },
  );
});

interface Answered {
  method: string;
  url: string;
  status: number;
  code: unknown;
  faulted: boolean;
}

describe('a whole conformance run against the emulator', () => {
  const answered: Answered[] = [];
  let report: RunReport;
  beforeAll(async () => {
    const recording: FetchLike = async (url, init) => {
      const response = await fetch(url, init);
      if (response.status >= 400) {
        const body = (await response
          .clone()
          .json()
          .catch(() => undefined)) as { code?: unknown } | undefined;
        answered.push({ method: init.method ?? 'GET', url, status: response.status, code: body?.code, faulted: response.headers.has('x-svc-fault') });
      }
      return response;
    };
    const target = { baseUrl: svc.baseUrl, apiKey: ACME_KEY, secondApiKey: GLOBEX_KEY, timeoutMs: 30_000, fetch: recording };
    const { profile } = await preflight(target, 'auto');
    // The rate-limit check's hundreds of calls answer one code, and on a loaded machine it cannot outrun the refill.
    const selected = selectChecks(CATALOGUE, { profile, includeSlow: false, readOnly: false, only: [], skip: ['rate-limits'], hasSecondKey: true });
    report = await runSuite({ target, selected, profile, receiver: { host: '127.0.0.1', port: 0 } });
  }, 180_000);

  it('passes, and is answered error codes of many kinds', () => {
    expect(report.results.filter((result) => result.outcome === 'failed' || result.outcome === 'error').map((result) => result.id)).toEqual([]);
    expect(new Set(answered.map((answer) => answer.code)).size).toBeGreaterThan(20);
  });

  it('is answered no code the document does not list for that operation at that status (injected faults aside)', () => {
    const operationOf = templateMatcher(
      [api, control].flatMap((doc) =>
        Object.entries(doc.paths).flatMap(([path, item]) =>
          METHODS.filter((method) => item[method] !== undefined).map((method) => ({
            method: method.toUpperCase(),
            path,
            value: { doc, operation: item[method]! },
          })),
        ),
      ),
    );
    const undocumented = new Set<string>();
    let checked = 0;
    for (const answer of answered) {
      const found = operationOf(answer.method.toUpperCase(), new URL(answer.url).pathname);
      // A fault answers what it was told to; a path of no operation is the router's 404 (or 405), not an operation's.
      if (answer.faulted || found === undefined) continue;
      const { doc, operation } = found;
      const response = operation.responses[String(answer.status)];
      const codes = response === undefined ? [] : enumOf(resolved(doc, response));
      checked += 1;
      if (!codes.includes(String(answer.code))) undocumented.add(`${operation.operationId} ${answer.status} ${String(answer.code)}`);
    }
    expect(checked).toBeGreaterThan(100);
    expect([...undocumented].sort()).toEqual([]);
  });
});
