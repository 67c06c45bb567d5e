/**
 * The examples of the /v1 document (docs/openapi.md#examples): every request body, path and
 * query parameter and success answer has one; each validates against its schema, in the
 * document (Ajv, draft 2020-12) and in zod (the route's own schema); and each example request,
 * sent as it is to a fresh emulator seeded with fixtures/default.json, is answered as the
 * document says: every GET 2xx with nothing made first (each names a seeded record: the Acme
 * tenant's apps, users, passkey, guest session and webhook), every create 2xx, each with the
 * example's fields, and the GETs of seeded records with the example answer (timestamps, parties
 * and keys aside, which the emulator draws afresh). A record a write example changes, or one the
 * fixture cannot hold, is made first by its create example, and its id put in place of the
 * example's (MADE_BY_CREATE), as a Dredd hook would.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_EXAMPLES, MADE_BY_CREATE } from '../src/operations/examples.js';
import { OPERATIONS, type OperationId } from '../src/operations/index.js';
import { openSession } from '../src/services/sessions.js';
import { tempDataDir } from '../src/test-support/harness.js';
import { startInProcess, type InProcessEmulator } from '../src/test-support/in-process.js';
import type { z } from '@hono/zod-openapi';

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

type Media = { schema: unknown; example?: unknown };
type Parameter = { name: string; in: 'path' | 'query'; required?: boolean; schema: unknown; example?: unknown };
type Operation = {
  operationId: OperationId;
  security?: Array<Record<string, unknown>>;
  parameters?: Parameter[];
  requestBody?: { content: { 'application/json': Media } };
  responses: Record<string, { content?: { 'application/json'?: Media } }>;
};
type Doc = { paths: Record<string, Partial<Record<(typeof HTTP_METHODS)[number], Operation>>> };
/** An operation, its success answers, and where it is in the document (a JSON pointer). */
type Entry = { method: string; path: string; operation: Operation; success: Array<[string, Media]>; at: string };

const pointerPart = (text: string): string => text.replace(/~/g, '~0').replace(/\//g, '~1');

function operationsOf(doc: Doc): Entry[] {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    HTTP_METHODS.filter((method) => item[method] !== undefined).map((method): Entry => {
      const operation = item[method]!;
      const success = Object.entries(operation.responses)
        .filter(([status]) => /^2\d\d$/.test(status))
        .map(([status, response]): [string, Media] => [status, response.content!['application/json']!]);
      return { method: method.toUpperCase(), path, operation, success, at: `#/paths/${pointerPart(path)}/${method}` };
    }),
  );
}

/**
 * The examples a tool cannot send as they are, and why; sent anyway, each is refused with a 4xx.
 * Everything else answers 2xx.
 */
const NEEDS_A_PROOF: Partial<Record<OperationId, string>> = {
  verifyMfaSetup: 'a TOTP code of the secret setupMfa answered',
  createMfaChallenge: 'MFA turned on, which takes a TOTP code',
  verifyMfa: 'a challenge and a TOTP code',
  disableMfa: 'MFA turned on, which takes a TOTP code',
  recoverKey: 'the device and recovery shares createWallet answered, once',
  verifyTelegramAuth: "a hash over the data with the tenant's bot token",
  verifyPasskeyRegistration: "an authenticator's attestation of the challenge",
  verifyPasskeyLogin: "an authenticator's signature of the challenge",
  verifyCustomDomain: 'the TXT record in DNS',
};

/** What each example request needs done first on a fresh emulator, by its own example requests. */
const FIRST: Partial<Record<OperationId, OperationId[]>> = {
  getWallet: ['createWallet'],
  storeKeyShare: ['createWallet'],
  getKeyShares: ['createWallet', 'storeKeyShare'],
  deleteKeyShares: ['createWallet', 'storeKeyShare'],
  recoverKey: ['createWallet'],
  createDelegatedSession: ['createWallet'],
  getDelegatedSession: ['createWallet', 'createDelegatedSession'],
  revokeDelegatedSession: ['createWallet', 'createDelegatedSession'],
  executeTransaction: ['createWallet', 'createDelegatedSession'],
  queryContracts: ['createWallet', 'createDelegatedSession', 'executeTransaction'],
  convertGuest: ['createGuest'],
  expireGuest: ['createGuest'],
  revokeApiKey: ['createApiKey'],
  updateWebhook: ['createWebhook'],
  deleteWebhook: ['createWebhook'],
  sendTestEvent: ['createWebhook'],
  removeCustomDomain: ['registerCustomDomain'],
  verifyCustomDomain: ['registerCustomDomain'],
};

/** Fields the emulator draws afresh (times, keys, parties): left out when an answer is compared with its example. */
const DRAWN = new Set(['createdAt', 'updatedAt', 'expiresAt', 'partyId', 'publicKey', 'uptimeSeconds']);

/** The GETs of seeded records and the writes on them whose answer is the example's, fields drawn afresh aside. */
const ANSWERED_AS_THE_EXAMPLE: OperationId[] = [
  'listApps',
  'getApp',
  'updateApp',
  'deleteApp',
  'listUsers',
  'getUser',
  'listApiKeys',
  'getTenant',
  'updateTenant',
  'getMfaStatus',
  'cleanupGuests',
  'getGuest',
  'getTelegramWidgetConfig',
  'listWebhooks',
  'listDeliveries',
];

/** The fields of a value, all the way down (an array by its first item): what an answer and its example must share. */
function fieldsOf(value: unknown): unknown {
  if (Array.isArray(value)) return value.length === 0 ? [] : [fieldsOf(value[0])];
  if (value === null || typeof value !== 'object') return '';
  return Object.fromEntries(
    Object.entries(value)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([key, inner]) => [key, fieldsOf(inner)]),
  );
}

function withoutDrawn(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutDrawn);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).flatMap(([key, inner]) => (DRAWN.has(key) ? [] : [[key, withoutDrawn(inner)]])));
}

describe('the examples of the OpenAPI document', () => {
  let svc: InProcessEmulator;
  let doc: Doc;
  let entries: Entry[];
  let ajv: Ajv2020;
  /** A validator of the schema at `pointer` in the document, its $refs resolved against the document. */
  const validatorAt = (pointer: string): ValidateFunction => ajv.getSchema(`openapi.json${pointer}`) ?? ajv.compile({ $ref: `openapi.json${pointer}` });

  beforeAll(async () => {
    svc = await startInProcess({ dataDir: tempDataDir() });
    doc = (await svc.request('GET', '/v1/openapi.json', { key: null })).body as Doc;
    entries = operationsOf(doc);
    ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
    ajv.addSchema(doc, 'openapi.json');
  });
  afterAll(() => svc.close());

  it('gives every request body, path and query parameter and success answer an example', () => {
    const missing: string[] = [];
    const counts = { bodies: 0, parameters: 0, answers: 0 };
    for (const { method, path, operation, success } of entries) {
      const where = `${method} ${path}`;
      if (operation.requestBody !== undefined) {
        counts.bodies++;
        if (operation.requestBody.content['application/json'].example === undefined) missing.push(`${where} body`);
      }
      for (const parameter of operation.parameters ?? []) {
        counts.parameters++;
        if (parameter.example === undefined) missing.push(`${where} ${parameter.in} ${parameter.name}`);
        // In the schema too, where generators and Prism read it (beside the $ref of a named enum).
        const schema = parameter.schema as { example?: unknown; allOf?: Array<{ example?: unknown }> };
        expect(schema.example ?? schema.allOf?.find((part) => 'example' in part)?.example, `${where} ${parameter.name}`).toEqual(parameter.example);
      }
      for (const [status, media] of success) {
        counts.answers++;
        if (media.example === undefined) missing.push(`${where} ${status}`);
      }
    }
    expect(missing).toEqual([]);
    expect(counts).toEqual({ bodies: 29, parameters: 28, answers: 58 });
  });

  it('gives examples that their schemas accept, in the document and in zod', () => {
    const refused: string[] = [];
    for (const entry of entries) {
      const { method, path, operation, success } = entry;
      const where = `${method} ${path}`;
      const config = OPERATIONS[operation.operationId].config as {
        request?: { body?: { content: { 'application/json': { schema: z.ZodType } } }; params?: z.ZodType; query?: z.ZodType };
        responses: Record<string, { content?: { 'application/json'?: { schema: z.ZodType } } }>;
      };
      const check = (what: string, schema: string, zod: z.ZodType | undefined, example: unknown) => {
        const validate = validatorAt(schema);
        if (!validate(example)) refused.push(`${where} ${what}: ${ajv.errorsText(validate.errors)}`);
        const parsed = zod?.safeParse(example);
        if (parsed?.success === false)
          refused.push(`${where} ${what} (zod): ${parsed.error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`).join('; ')}`);
      };
      if (operation.requestBody !== undefined) {
        const media = operation.requestBody.content['application/json'];
        check('body', `${entry.at}/requestBody/content/application~1json/schema`, config.request?.body?.content['application/json'].schema, media.example);
      }
      for (const [status, media] of success) {
        check(
          status,
          `${entry.at}/responses/${status}/content/application~1json/schema`,
          config.responses[status]?.content?.['application/json']?.schema,
          media.example,
        );
      }
      // Parameters travel as text: zod reads the path's and the query's as the emulator does.
      for (const place of ['path', 'query'] as const) {
        const parameters = (operation.parameters ?? []).filter((parameter) => parameter.in === place);
        for (const parameter of parameters) {
          const index = (operation.parameters ?? []).indexOf(parameter);
          check(`${place} ${parameter.name}`, `${entry.at}/parameters/${index}/schema`, undefined, parameter.example);
        }
        if (parameters.length === 0) continue;
        const text = Object.fromEntries(parameters.map((parameter) => [parameter.name, String(parameter.example)]));
        const parsed = (place === 'path' ? config.request?.params : config.request?.query)?.safeParse(text);
        if (parsed?.success !== true) refused.push(`${where} ${place} (zod): ${JSON.stringify(parsed?.error?.issues ?? 'no schema')}`);
      }
    }
    expect(refused).toEqual([]);
    // The check can fail: an example broken in one field is refused.
    const user = doc.paths['/v1/users/{id}']!.get!.responses['200']!.content!['application/json']!;
    expect(
      validatorAt('#/paths/~1v1~1users~1{id}/get/responses/200/content/application~1json/schema')({
        data: { ...(user.example as { data: object }).data, trustLevel: 'admin' },
      }),
    ).toBe(false);
  });

  it('names records of the fixture, and ids a fresh emulator seeds', () => {
    const names = JSON.stringify(doc.paths);
    const { tenantId, appId, userId, walletId, guestId, webhookId, passkeyEmail } = FIXTURE_EXAMPLES;
    for (const id of [tenantId, appId, userId, walletId, guestId, webhookId, encodeURIComponent(passkeyEmail)]) expect(names).toContain(id);
    const { rt } = svc.emulator;
    expect(rt.store.get('users', userId)?.walletId).toBe(walletId);
    expect(rt.store.get('apps', appId)).toBeDefined();
    expect(rt.store.get('guests', guestId)).toMatchObject({ tenantId, endedAt: null });
    expect(rt.store.get('webhooks', webhookId)).toMatchObject({ tenantId, enabled: false });
    const passkeyUser = rt.store.ofTenant('users', tenantId).find((user) => user.email === passkeyEmail)!;
    expect(rt.store.ofTenant('passkeys', tenantId).filter((passkey) => passkey.userId === passkeyUser.id)).toHaveLength(1);
  });

  it('answers each example request, sent as it is to a fresh emulator, as the document says', async () => {
    const { rt } = svc.emulator;
    // The example user's session, kept in the snapshot each request starts from.
    const user = rt.store.get('users', FIXTURE_EXAMPLES.userId)!;
    const { grant } = await rt.store.write(() => openSession(rt, user, 'passkey', 24 * 60 * 60 * 1000));
    expect((await svc.request('POST', '/_emulator/snapshots', { body: { name: 'fresh' } })).status).toBe(201);
    const byId = new Map(entries.map((entry) => [entry.operation.operationId, entry]));

    /** Sends the operation's example request; `made` maps an example id to the id its create really answered. */
    const send = async (entry: Entry, made: Map<string, string>, delegate: string | undefined) => {
      const parameters = entry.operation.parameters ?? [];
      let url = entry.path;
      for (const parameter of parameters.filter((p) => p.in === 'path')) {
        const example = String(parameter.example);
        url = url.replace(`{${parameter.name}}`, encodeURIComponent(made.get(example) ?? example));
      }
      const query = parameters.filter((p) => p.in === 'query').map((p) => `${p.name}=${encodeURIComponent(String(p.example))}`);
      if (query.length > 0) url += `?${query.join('&')}`;
      const schemes = (entry.operation.security ?? []).flatMap((scheme) => Object.keys(scheme));
      const token = schemes.includes('DelegatedSessionAuth') ? delegate : schemes.includes('SessionAuth') ? grant.token : undefined;
      const body = entry.operation.requestBody?.content['application/json'].example;
      return svc.request(entry.method, url, {
        ...(token === undefined ? {} : { headers: { authorization: `Bearer ${token}` } }),
        ...(body === undefined ? {} : { body }),
      });
    };

    const outcomes: string[] = [];
    const expected: string[] = [];
    const gets: string[] = [];
    for (const entry of entries) {
      const { operationId } = entry.operation;
      expect((await svc.request('POST', '/_emulator/snapshots/fresh/restore')).status).toBe(200);
      const made = new Map<string, string>();
      let delegate: string | undefined;
      for (const first of FIRST[operationId] ?? []) {
        const answer = await send(byId.get(first)!, made, delegate);
        expect(answer.status, `${first}, before ${operationId}: ${answer.text}`).toBeLessThan(300);
        const example = byId.get(first)!.success[0]![1].example as { data: { id?: string; token?: string } };
        if (example.data.id !== undefined && MADE_BY_CREATE[example.data.id] === first) made.set(example.data.id, answer.body.data.id);
        if (first === 'createDelegatedSession') delegate = answer.body.data.token;
      }
      const answer = await send(entry, made, delegate);
      if (entry.method === 'GET') gets.push(`${operationId} ${(FIRST[operationId] ?? []).length} made first, ${answer.status}`);
      const proof = NEEDS_A_PROOF[operationId];
      const success = entry.success.find(([status]) => Number(status) === answer.status);
      outcomes.push(`${operationId} ${success !== undefined ? 'success' : answer.status >= 400 && answer.status < 500 ? '4xx' : answer.status}`);
      expected.push(`${operationId} ${proof === undefined ? 'success' : '4xx'}`);
      if (success === undefined) {
        if (proof === undefined) outcomes.push(`  ${operationId} answered ${answer.status}: ${answer.text.slice(0, 300)}`);
        continue;
      }
      const validate = validatorAt(`${entry.at}/responses/${success[0]}/content/application~1json/schema`);
      if (!validate(answer.body)) outcomes.push(`  ${operationId}'s answer breaks its schema: ${ajv.errorsText(validate.errors)}`);
      // Every answer has the example's fields, none more or fewer (a passkey's options as the library makes them);
      // but the document's own, whose example is a document of one path.
      if (operationId !== 'getOpenApiDocument')
        expect(fieldsOf(answer.body), `${operationId}: the example answer has the fields of the answer`).toEqual(fieldsOf(success[1].example));
      if (ANSWERED_AS_THE_EXAMPLE.includes(operationId)) {
        expect(withoutDrawn(answer.body), `${operationId}: the example answer is the one a fresh emulator gives`).toEqual(withoutDrawn(success[1].example));
      }
    }
    expect(outcomes).toEqual(expected);
    // Every GET example answers 2xx on a fresh emulator. Each finds a seeded record as it is, with nothing made first,
    // but the three that read what the signed-in user's own create examples make: the wallet claimed by
    // createWallet's example (seeded unclaimed, so that example answers 201 too), and its delegated session.
    expect(gets.filter((line) => !/, 2\d\d$/.test(line))).toEqual([]);
    expect(gets.filter((line) => !line.includes(' 0 made first,')).map((line) => line.split(' ')[0])).toEqual([
      'getWallet',
      'getKeyShares',
      'getDelegatedSession',
    ]);
    expect(gets.length).toBe(entries.filter((entry) => entry.method === 'GET').length);
  }, 180_000);

  it('refuses a create example sent twice where the spec makes its field unique: 409, and the document lists it', async () => {
    expect((await svc.request('POST', '/_emulator/snapshots/fresh/restore')).status).toBe(200);
    for (const [path, operationId] of [
      ['/v1/users', 'createUser'],
      ['/v1/apps', 'createApp'],
    ] as const) {
      const operation = doc.paths[path]!.post!;
      expect(operation.operationId).toBe(operationId);
      const body = operation.requestBody!.content['application/json'].example;
      expect((await svc.request('POST', path, { body })).status).toBe(201);
      const again = await svc.request('POST', path, { body });
      expect([again.status, again.body.code]).toEqual([409, 'conflict']);
      expect(Object.keys(operation.responses)).toContain('409');
    }
  });
});
