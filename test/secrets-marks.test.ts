/**
 * Secrets are marked once, on their schemas (docs/testing-with-svc.md#secrets): the OpenAPI document shows each
 * mark as `x-secret: true`, and what the journal hides is derived from the same marks. The list
 * below is the one deliberate copy: every place the API carries a secret, so a secret left
 * unmarked, or a field marked that is none, fails here.
 */
import type { RouteConfig } from '@hono/zod-openapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.js';
import { createRuntime } from '../src/emulator.js';
import { OPERATIONS } from '../src/operations/index.js';
import type { Runtime } from '../src/runtime.js';
import { secretPaths, SECRET_EXTENSION } from '../src/schemas/secret.js';
import { Fixture } from '../src/schemas/fixture.js';
import { operationsWithSecrets } from '../src/services/secret-places.js';

/** `operationId request|<status> path`, for every secret the API carries. */
const SECRET_PLACES = [
  'convertGuest 200 data.session.token',
  'createApiKey 201 data.key',
  'createDelegatedSession 201 data.token',
  'createGuest 201 data.session.token',
  'createWallet 201 data.deviceShare',
  'createWallet 201 data.recoveryShare',
  'createWebhook 201 data.secret',
  'getKeyShares 200 data.*.share',
  'recoverKey 200 data.privateKey',
  'recoverKey request shares.*',
  'setupMfa 200 data.otpauthUrl',
  'setupMfa 200 data.qrCode',
  'setupMfa 200 data.secret',
  'storeKeyShare request share',
  'updateTenant request settings.telegram.botToken',
  'updateWebhook 200 data.secret',
  'verifyMfa request code',
  'verifyMfaSetup 200 data.recoveryCodes.*',
  'verifyMfaSetup request code',
  'verifyPasskeyLogin 200 data.session.token',
  'verifyPasskeyRegistration 200 data.session.token',
  'verifyTelegramAuth 200 data.session.token',
];

type Schema = {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  items?: Schema;
  additionalProperties?: Schema | boolean;
  allOf?: Schema[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  [SECRET_EXTENSION]?: boolean;
};
type Media = { content?: Record<string, { schema?: Schema }> };
type Document = {
  paths: Record<string, Record<string, Media & { operationId: string; requestBody?: Media; responses: Record<string, Media & { $ref?: string }> }>>;
  components: { schemas: Record<string, Schema>; responses?: Record<string, Media> };
};

/** Every path in a document schema whose property says x-secret: true, $refs and compositions followed. */
function markedIn(doc: Document, schema: Schema | undefined, path: string[] = [], seen = new Set<string>()): string[] {
  if (schema === undefined) return [];
  if (schema.$ref !== undefined) {
    const name = schema.$ref.split('/').pop()!;
    if (seen.has(name)) return [];
    return markedIn(doc, doc.components.schemas[name], path, new Set(seen).add(name));
  }
  if (schema[SECRET_EXTENSION] === true) return [path.join('.')];
  const found: string[] = [];
  for (const part of [...(schema.allOf ?? []), ...(schema.anyOf ?? []), ...(schema.oneOf ?? [])]) found.push(...markedIn(doc, part, path, seen));
  for (const [name, field] of Object.entries(schema.properties ?? {})) found.push(...markedIn(doc, field, [...path, name], seen));
  if (schema.items !== undefined) found.push(...markedIn(doc, schema.items, [...path, '*'], seen));
  if (typeof schema.additionalProperties === 'object') found.push(...markedIn(doc, schema.additionalProperties, [...path, '*'], seen));
  return found;
}

const jsonSchemaOf = (media: Media | undefined): Schema | undefined => media?.content?.['application/json']?.schema;

describe('secret marks', () => {
  let rt: Runtime;
  let doc: Document;
  beforeAll(async () => {
    rt = await createRuntime({ inMemory: true });
    doc = (await (await createApp(rt).request('/v1/openapi.json')).json()) as Document;
  });
  afterAll(() => rt.close());

  it('the OpenAPI document shows x-secret: true on exactly the places that carry a secret', () => {
    const shown: string[] = [];
    for (const item of Object.values(doc.paths)) {
      for (const operation of Object.values(item)) {
        for (const path of markedIn(doc, jsonSchemaOf(operation.requestBody))) shown.push(`${operation.operationId} request ${path}`);
        for (const [status, response] of Object.entries(operation.responses)) {
          const resolved = response.$ref === undefined ? response : doc.components.responses?.[response.$ref.split('/').pop()!];
          for (const path of markedIn(doc, jsonSchemaOf(resolved))) shown.push(`${operation.operationId} ${status} ${path}`);
        }
      }
    }
    expect([...new Set(shown)].sort()).toEqual(SECRET_PLACES);
  });

  it('what the journal hides is derived from the same marks, and is those places', () => {
    const derived = operationsWithSecrets().flatMap(({ operationId, secrets }) => [
      ...secrets.request.map((path) => `${operationId} request ${path.join('.')}`),
      ...[...secrets.responses].flatMap(([status, paths]) => paths.map((path) => `${operationId} ${status} ${path.join('.')}`)),
    ]);
    expect(derived.sort()).toEqual(SECRET_PLACES);
  });

  it('no operation takes a secret in its path or query: a URL is logged and kept by proxies', () => {
    for (const [operationId, { config }] of Object.entries(OPERATIONS) as Array<[string, { config: RouteConfig }]>) {
      const request = config.request as { params?: Parameters<typeof secretPaths>[0]; query?: Parameters<typeof secretPaths>[0] } | undefined;
      for (const part of [request?.params, request?.query]) if (part !== undefined) expect(secretPaths(part), operationId).toEqual([]);
    }
  });

  it('the fixture format marks its API keys, bot tokens and webhook secrets, what svc export leaves out without --include-secrets', () => {
    expect(secretPaths(Fixture).map((path) => path.join('.'))).toEqual([
      'tenants.*.apiKeys.*.key',
      'tenants.*.settings.telegram.botToken',
      'tenants.*.webhooks.*.secret',
    ]);
  });
});
