/**
 * The OpenAPI document as tools no one here wrote take it, run on the document the
 * app serves, offline: `@redocly/cli lint` with its recommended and recommended-strict rules, and
 * `spectral lint` with `spectral:oas`, find no error and no warning, and `openapi-typescript` generates types that a small strictly typed program,
 * compiled by `tsc`, uses for calls, errors, headers and webhook payloads.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { promisify } from 'node:util';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.js';
import { createRuntime } from '../src/emulator.js';

const run = promisify(execFile);
const REDOCLY_CLI = join(dirname(createRequire(import.meta.url).resolve('@redocly/cli/package.json')), 'bin', 'cli.js');
const SPECTRAL_CLI = join(dirname(createRequire(import.meta.url).resolve('@stoplight/spectral-cli/package.json')), 'dist', 'index.js');

interface SpectralProblem {
  code: string;
  severity: number;
  path: string[];
  message: string;
}

/**
 * The one component no operation refers to, on purpose: a 405 is the answer of a path, not of
 * an operation (docs/openapi.md#error-codes). Both linters are told so, in their own way, for it alone.
 */
const UNREFERENCED = '#/components/responses/MethodNotAllowed';

/** `spectral lint` with the `spectral:oas` rules on a file; every problem it reports, of any severity. */
async function spectralLint(file: string): Promise<SpectralProblem[]> {
  const ruleset = join(dirname(file), '.spectral.yaml');
  writeFileSync(ruleset, `extends: ["spectral:oas"]\noverrides:\n  - files: ["**/*.json${UNREFERENCED}"]\n    rules:\n      oas3-unused-component: "off"\n`);
  // It exits 1 when it finds problems; the report on stdout says what they are either way.
  const output = await run(process.execPath, [SPECTRAL_CLI, 'lint', file, '--ruleset', ruleset, '--format', 'json', '--quiet'], {
    cwd: dirname(file),
    env: { ...process.env, NO_COLOR: '1' },
  }).catch((failure: { stdout?: string }) => ({ stdout: failure.stdout ?? '' }));
  return JSON.parse(output.stdout) as SpectralProblem[];
}

interface LintReport {
  totals: { errors: number; warnings: number };
  problems: Array<{ ruleId: string; message: string; location: Array<{ pointer?: string }> }>;
}

/** `redocly lint --extends=<rules>` on a file, offline; the JSON report. */
async function redoclyLint(file: string, rules: 'recommended' | 'recommended-strict' = 'recommended'): Promise<LintReport> {
  writeFileSync(join(dirname(file), '.redocly.lint-ignore.yaml'), `${basename(file)}:\n  no-unused-components:\n    - '${UNREFERENCED}'\n`);
  const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };
  // It exits 1 when it finds errors; the report on stdout says what they are either way.
  const output = await run(process.execPath, [REDOCLY_CLI, 'lint', file, '--format=json', `--extends=${rules}`], { cwd: dirname(file), env }).catch(
    (failure: { stdout?: string }) => ({ stdout: failure.stdout ?? '' }),
  );
  return JSON.parse(output.stdout) as LintReport;
}

/** A program written against the generated types, as an SDK user would. Lines marked @ts-expect-error must not compile. */
const PROGRAM = `
import type { components, operations, paths, webhooks } from './api.js';

type Json<T> = T extends { content: { 'application/json': infer Body } } ? Body : never;

export const page: Json<paths['/v1/apps']['get']['responses'][200]> = { data: [], total: 0, page: 1, pageSize: 20, hasMore: false };
export const query: NonNullable<operations['listUsers']['parameters']['query']> = { page: 2, page_size: 50, trust_level: 'verified', search: 'ada' };
// @ts-expect-error /apps takes no trust_level
export const appsQuery: NonNullable<operations['listApps']['parameters']['query']> = { trust_level: 'guest' };
export const body: Json<operations['createWebhook']['requestBody']> = { url: 'http://127.0.0.1:4020/hook', events: ['user.created', '*'] };
// @ts-expect-error an event type of the list, or *
export const wrongEvents: Json<operations['createWebhook']['requestBody']> = { url: 'http://127.0.0.1:4020/hook', events: ['user.deleted'] };
export const empty: Json<NonNullable<operations['setupMfa']['requestBody']>> = {};
export const conflict: Json<operations['createUser']['responses'][409]> = { error: 'taken', code: 'conflict', details: [{ path: 'email', message: 'taken' }] };
// @ts-expect-error createUser answers 409 only as conflict
export const notAConflict: Json<operations['createUser']['responses'][409]> = { error: 'taken', code: 'not_found', details: [] };
export const sessionGone: Json<operations['verifyMfa']['responses'][410]>['code'] = 'challenge_expired';
// @ts-expect-error a code of the catalogue, not any string
export const unknownCode: components['schemas']['ErrorCode'] = 'teapot';
export const limited: operations['listUsers']['responses'][429]['headers']['Retry-After'] = 3;
export const gone: Json<operations['getGuest']['responses'][410]> = { error: 'ended', code: 'session_expired', details: [] };
export const level: components['schemas']['User']['trustLevel'] = 'trusted';
// @ts-expect-error one of the four trust levels
export const badLevel: components['schemas']['User']['trustLevel'] = 'admin';

type UserCreated = Json<webhooks['user.created']['post']['requestBody']>;
export const created: UserCreated = {
  id: 'evt_1',
  type: 'user.created',
  created_at: '2026-11-21T10:00:00.000Z',
  api_version: '2026-11-01',
  data: { userId: 'usr_1', email: 'ada@example.com', partyId: 'ada::1220' },
};
// @ts-expect-error the type of a user.created payload is fixed
export const mistyped: UserCreated = { ...created, type: 'user.updated' };
export const signature: operations['userCreatedEvent']['parameters']['header']['X-Service-Signature'] = 'sha256=00';
export const failed: Json<webhooks['tx.failed']['post']['requestBody']>['data']['status'] = 'failed';
`;

describe('the OpenAPI document in third-party tools', () => {
  let dir: string;
  let documentFile: string;
  let doc: Record<string, unknown>;
  beforeAll(async () => {
    const rt = await createRuntime({ inMemory: true });
    try {
      // At svc serve's default address, as `svc openapi` writes it: redocly refuses a localhost server.
      doc = (await (await createApp(rt).request('http://127.0.0.1:4010/v1/openapi.json')).json()) as Record<string, unknown>;
    } finally {
      await rt.close();
    }
    dir = mkdtempSync(join(tmpdir(), 'svc-openapi-'));
    documentFile = join(dir, 'openapi.json');
    writeFileSync(documentFile, JSON.stringify(doc, null, 2));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.for(['recommended', 'recommended-strict'] as const)('passes @redocly/cli lint with the %s rules: no error, no warning', async (rules) => {
    const report = await redoclyLint(documentFile, rules);
    expect(report.problems.map((problem) => `${problem.ruleId} ${problem.location[0]?.pointer ?? ''}: ${problem.message}`)).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  });

  it('and the lint does find what it should, so the check above can fail', async () => {
    const broken = structuredClone(doc) as { paths: Record<string, Record<string, { operationId?: string }>> };
    delete broken.paths['/v1/apps']!['get']!.operationId;
    const file = join(dir, 'broken.json');
    writeFileSync(file, JSON.stringify(broken));
    const report = await redoclyLint(file);
    expect(report.problems.map((problem) => problem.ruleId)).toEqual(['operation-operationId']);
  });

  it('passes spectral lint with the spectral:oas rules: no problem of any severity', { timeout: 60_000 }, async () => {
    const problems = await spectralLint(documentFile);
    expect(problems.map((problem) => `${problem.code} ${problem.path.join('.')}: ${problem.message}`)).toEqual([]);
  });

  it('and spectral finds an operation without a description, so the check above can fail', { timeout: 60_000 }, async () => {
    const broken = structuredClone(doc) as { paths: Record<string, Record<string, { description?: string }>> };
    delete broken.paths['/v1/apps']!['get']!.description;
    const file = join(dir, 'undescribed.json');
    writeFileSync(file, JSON.stringify(broken));
    expect((await spectralLint(file)).map((problem) => `${problem.code} ${problem.path.join('.')}`)).toEqual(['operation-description paths./v1/apps.get']);
  });

  // Type-checking a 5,000-line declaration file takes seconds on a busy machine: a roomy limit, not a timing check.
  it('gives openapi-typescript types that a strict program compiles against', { timeout: 120_000 }, async () => {
    writeFileSync(join(dir, 'api.d.ts'), astToString(await openapiTS(doc as never)));
    writeFileSync(join(dir, 'program.ts'), PROGRAM);
    const program = ts.createProgram([join(dir, 'program.ts')], {
      strict: true,
      exactOptionalPropertyTypes: true,
      noUncheckedIndexedAccess: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      types: [],
    });
    const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(diagnostics).toEqual([]);
  });
});
