/**
 * The OpenAPI document's last gaps: a body is required exactly where the emulator
 * refuses a request without one (every operation with a body is sent without it, as a
 * signed-in user, and its answer compared with requestBody.required); every operation has a
 * description; every webhook payload has an example that validates against its schema (Ajv,
 * draft 2020-12, and the zod schema the emulator builds payloads against); `servers` is the
 * URL svc is reached at, whatever origin the document was fetched from.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATION_DESCRIPTIONS } from '../src/routes/openapi-descriptions.js';
import { EVENT_PAYLOADS } from '../src/schemas/events.js';
import { EVENT_TYPES } from '../src/schemas/words.js';
import { startInProcess, type InProcessEmulator } from '../src/test-support/in-process.js';
import { asUser, claimWallet, signIn } from '../src/test-support/signed-in.js';

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

type Operation = { operationId: string; description?: string; requestBody?: { required?: boolean; content: Record<string, unknown> } };
type Doc = {
  servers: Array<{ url: string }>;
  paths: Record<string, Partial<Record<(typeof HTTP_METHODS)[number], Operation>>>;
  webhooks: Record<string, { post: { requestBody: { content: { 'application/json': { schema: unknown; example?: unknown } } } } }>;
};

function operationsOf(doc: Doc): Array<[string, string, Operation]> {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    HTTP_METHODS.filter((method) => item[method] !== undefined).map((method): [string, string, Operation] => [method.toUpperCase(), path, item[method]!]),
  );
}

/** The operations the emulator answers without a body, which the document once marked required (five of them, and query). */
const BODYLESS = ['createGuest', 'createWallet', 'updateTenant', 'updateApp', 'updateWebhook', 'queryContracts'];

describe('the OpenAPI document without gaps', () => {
  let svc: InProcessEmulator;
  let doc: Doc;
  beforeAll(async () => {
    svc = await startInProcess();
    doc = (await svc.request('GET', '/v1/openapi.json', { key: null })).body as Doc;
  });
  afterAll(() => svc.close());

  it('marks a body required exactly where a request without one is refused with validation_error in the body', async () => {
    const who = await signIn(svc);
    const call = asUser(svc, who);
    // Real ids for the paths that take one, so an answer is the route's and not a 404 before validation.
    const app = (await svc.request('GET', '/apps')).body.data[0].id as string;
    const hook = (await svc.request('POST', '/webhooks', { body: { url: 'http://127.0.0.1:9/hook', events: ['*'] } })).body.data.id as string;
    // A delegated session for execute and query, which take its own token rather than the user's.
    const wallet = await claimWallet(svc, who);
    const delegated = await call('POST', '/delegated-sessions', {
      walletId: wallet.id,
      permissions: { templates: ['#pkg:Iou:Iou'], choices: [] },
      expiresIn: '1h',
    });
    expect(delegated.status).toBe(201);
    const ids: Record<string, string> = { '/v1/apps/{id}': app, '/v1/webhooks/{id}': hook, '/v1/delegated-sessions/{id}': delegated.body.data.id };
    // The first user's wallet is claimed above; a second user claims one without a body.
    const walletless = asUser(svc, await signIn(svc));
    const asDelegate = { authorization: `Bearer ${delegated.body.data.token as string}` };
    const withBody = operationsOf(doc).filter(([, , operation]) => operation.requestBody !== undefined);
    expect(withBody.length).toBeGreaterThan(25);
    const seen: Array<{ operationId: string; required: boolean; refused: boolean; status: number }> = [];
    for (const [method, path, operation] of withBody) {
      const id = ids[path.replace(/\/(execute|query)$/, '')] ?? 'xyz_00000000000000000000';
      const url = path.replace('{id}', id).replace('{walletId}', wallet.id);
      const res = /\/(execute|query)$/.test(path)
        ? await svc.request(method, url, { key: who.key, headers: asDelegate })
        : await (operation.operationId === 'createWallet' ? walletless : call)(method, url);
      const refused = res.status === 400 && res.body.code === 'validation_error' && res.body.details.some((d: { in?: string }) => d.in === 'body');
      seen.push({ operationId: operation.operationId, required: operation.requestBody!.required === true, refused, status: res.status });
    }
    for (const entry of seen) expect({ ...entry, refused: entry.required }, `${entry.operationId} answered ${entry.status}`).toEqual(entry);
    for (const operationId of BODYLESS) {
      const entry = seen.find((e) => e.operationId === operationId)!;
      expect(entry.required, operationId).toBe(false);
      expect(entry.status, operationId).toBeLessThan(300);
    }
  });

  it('describes every operation, and the table of descriptions names only operations that use it', () => {
    const operations = operationsOf(doc);
    expect(operations.filter(([, , operation]) => !operation.description?.trim()).map(([method, path]) => `${method} ${path}`)).toEqual([]);
    const ids = new Set(operations.map(([, , operation]) => operation.operationId));
    expect(Object.keys(OPERATION_DESCRIPTIONS).filter((id) => !ids.has(id))).toEqual([]);
    const used = operations.filter(([, , operation]) => operation.description === OPERATION_DESCRIPTIONS[operation.operationId]);
    expect(used.length).toBe(Object.keys(OPERATION_DESCRIPTIONS).length);
  });

  it('gives every webhook payload an example that its schema accepts, in the document and in zod', () => {
    expect(Object.keys(doc.webhooks).sort()).toEqual([...EVENT_TYPES].sort());
    const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
    ajv.addSchema(doc, 'openapi.json');
    for (const type of EVENT_TYPES) {
      const media = doc.webhooks[type]!.post.requestBody.content['application/json'];
      expect(media.example, type).toMatchObject({ type });
      const validate = ajv.compile({ $ref: `openapi.json${(media.schema as { $ref: string }).$ref}` });
      expect(validate(media.example) ? [] : validate.errors, type).toEqual([]);
      expect(EVENT_PAYLOADS[type].safeParse(media.example).error?.issues ?? [], type).toEqual([]);
      // The check can fail: the same example with the wrong type is refused.
      expect(validate({ ...(media.example as object), type: type === 'user.created' ? 'user.updated' : 'user.created' }), type).toBe(false);
    }
  });

  it('names the URL svc is reached at in servers, whatever origin it was fetched from', async () => {
    expect(doc.servers).toEqual([expect.objectContaining({ url: svc.origin })]);
    const elsewhere = await svc.request('GET', 'http://127.0.0.1:4400/v1/openapi.json', { key: null });
    expect(elsewhere.body.servers[0].url).toBe(svc.origin);
  });
});
