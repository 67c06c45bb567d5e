/**
 * The document's `webhooks` against real deliveries: a real emulator sends every event type,
 * from the API calls that emit them (DESIGN D8) and as test events, to a real loopback
 * receiver; each delivery's body and headers must match the schemas the served document
 * gives for its type, checked with a JSON Schema validator (Ajv, draft 2020-12).
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { createHash, createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_TYPES } from '../src/schemas/words.js';
import { startDnsServer, type TestDnsServer } from '../src/test-support/dns-server.js';
import { ACME_TENANT_ID, startTestEmulator, type TestEmulator } from '../src/test-support/harness.js';
import { startReceiver, type ReceivedDelivery, type TestReceiver } from '../src/test-support/receiver.js';
import { asUser, claimWallet, enableMfa, signIn } from '../src/test-support/signed-in.js';

/** The Acme bot token of fixtures/default.json (the README lists it). */
const ACME_BOT_TOKEN = '7000000001:AAacmeLocalTelegramBotToken000001';

interface HeaderParameter {
  name: string;
  in: string;
  required?: boolean;
}

/** Login Widget data signed as core.telegram.org/widgets/login describes. */
function telegramWidget(id: number, authDate: number): Record<string, string | number> {
  const fields: Record<string, string | number> = { id, first_name: 'Payload', username: `payload${id}`, auth_date: authDate };
  const checkString = Object.keys(fields)
    .sort()
    .map((key) => `${key}=${fields[key]}`)
    .join('\n');
  const secret = createHash('sha256').update(ACME_BOT_TOKEN).digest();
  return { ...fields, hash: createHmac('sha256', secret).update(checkString).digest('hex') };
}

describe("the document's webhooks, checked against real deliveries", () => {
  let dns: TestDnsServer;
  let svc: TestEmulator;
  let receiver: TestReceiver;
  let webhooks: Record<string, { post: { requestBody: unknown; parameters: HeaderParameter[] } }>;
  let ajv: Ajv2020;
  let deliveries: ReceivedDelivery[];
  /** Types emitted by API calls, before the test events. */
  let emittedByCalls: Set<string>;

  beforeAll(async () => {
    dns = await startDnsServer();
    svc = await startTestEmulator({ dnsServer: dns.address });
    receiver = await startReceiver();
    const doc = (await svc.request('GET', '/v1/openapi.json', { key: null })).body;
    webhooks = doc.webhooks;
    ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
    ajv.addSchema(doc, 'openapi.json');

    const hook = await svc.request('POST', '/webhooks', { body: { url: receiver.url, events: ['*'] } });
    expect(hook.status).toBe(201);
    const since = svc.emulator.rt.store.ofTenant('events', ACME_TENANT_ID).length;
    await emitEveryEventByApiCalls();
    emittedByCalls = new Set(
      svc.emulator.rt.store
        .ofTenant('events', ACME_TENANT_ID)
        .slice(since)
        .map((event) => event.type),
    );
    for (const type of EVENT_TYPES) expect((await svc.request('POST', `/webhooks/${hook.body.data.id}/test`, { body: { type } })).status).toBe(200);
    const expected = svc.emulator.rt.store.ofTenant('events', ACME_TENANT_ID).length - since;
    deliveries = await receiver.waitFor(expected, 20_000);
  });
  afterAll(async () => {
    await svc.close();
    await receiver.close();
    await dns.close();
  });

  /** Calls that emit each event type of DESIGN D8, as an integrator's backend would. */
  async function emitEveryEventByApiCalls(): Promise<void> {
    const owner = await signIn(svc); // user.created
    const call = asUser(svc, owner);
    const wallet = await claimWallet(svc, owner); // wallet.created
    const delegated = await call('POST', '/delegated-sessions', { walletId: wallet.id, permissions: { templates: ['*'], choices: ['*'] }, expiresIn: '1h' });
    const execute = (command: unknown) =>
      svc.request('POST', `/delegated-sessions/${delegated.body.data.id}/execute`, {
        headers: { authorization: `Bearer ${delegated.body.data.token}` },
        body: { command },
      });
    const created = await execute({ create: { templateId: '#pkg:Iou:Iou', payload: { amount: '1.00' } } }); // tx.completed
    const contractId = created.body.data.events[0].contractId as string;
    await execute({ exercise: { contractId, choice: 'Archive' } });
    expect((await execute({ exercise: { contractId, choice: 'Archive' } })).body.data.status).toBe('failed'); // tx.failed
    await call('DELETE', `/delegated-sessions/${delegated.body.data.id}`); // session.revoked (delegated)

    const mfa = await enableMfa(svc, owner); // mfa.enabled
    await mfa.verify();
    expect((await call('DELETE', '/mfa')).status).toBe(200); // mfa.disabled

    const nowS = Math.floor(svc.emulator.rt.clock.nowMs() / 1000);
    expect((await svc.request('POST', '/auth/telegram/verify', { body: telegramWidget(910_001, nowS) })).status).toBe(200); // no user.created: the new user has no e-mail
    const linked = await svc.request('POST', '/auth/telegram/verify', { headers: owner.headers, body: telegramWidget(910_002, nowS) }); // user.updated
    expect(linked.status).toBe(200);

    const guest = (await svc.request('POST', '/guests', { body: {} })).body.data; // guest.created
    await svc.request('POST', `/guests/${guest.id}/convert`, { body: { email: 'payload.guest@example.com' } }); // guest.converted, user.created
    const ended = (await svc.request('POST', '/guests', { body: {} })).body.data;
    await svc.request('DELETE', `/guests/${ended.id}`); // session.revoked (guest)

    const key = (await svc.request('POST', '/api-keys', { body: { name: 'payloads' } })).body.data; // api_key.created
    await svc.request('DELETE', `/api-keys/${key.id}`); // api_key.revoked

    const domain = (await svc.request('POST', '/custom-domains', { body: { domain: 'payloads.acme.test' } })).body.data;
    dns.txt.set(domain.verification.name, [domain.verification.value]);
    expect((await svc.request('POST', '/custom-domains/verify')).status).toBe(200); // domain.verified

    const checkout = await svc.request('POST', '/billing/checkout', {
      body: { plan: 'enterprise', successUrl: 'https://app.example.com/paid', cancelUrl: 'https://app.example.com/cancel' },
    });
    const paid = await fetch(`${svc.origin}/_provider/checkout/${checkout.body.data.id}/pay`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: '',
    });
    expect(paid.status).toBe(303); // billing.subscription.updated
  }

  const compiled = (pointer: string): ValidateFunction => ajv.getSchema(pointer) ?? ajv.compile({ $ref: pointer });

  /** The validators of a type's body and of each of its header parameters, from the served document. */
  function validatorFor(type: string): { body: ValidateFunction; headers: Array<HeaderParameter & { check: ValidateFunction }> } {
    const operation = webhooks[type]?.post;
    if (!operation) throw new Error(`the document has no webhook ${type}`);
    const at = `openapi.json#/webhooks/${type}/post`;
    return {
      body: compiled(`${at}/requestBody/content/application~1json/schema`),
      headers: operation.parameters.flatMap((parameter, index) =>
        parameter.in === 'header' ? [{ ...parameter, check: compiled(`${at}/parameters/${index}/schema`) }] : [],
      ),
    };
  }

  it('describes every event type, and the API calls above emitted each of them', () => {
    expect(Object.keys(webhooks).sort()).toEqual([...EVENT_TYPES].sort());
    expect([...emittedByCalls].sort()).toEqual([...EVENT_TYPES].sort());
  });

  it('every delivery matches the payload schema and the headers of its type', () => {
    expect(deliveries.length).toBeGreaterThanOrEqual(2 * EVENT_TYPES.length);
    const problems: string[] = [];
    for (const delivery of deliveries) {
      const payload = JSON.parse(delivery.body.toString()) as { id: string; type: string };
      const { id, type } = payload;
      const { body, headers } = validatorFor(type);
      if (!body(payload)) problems.push(`${type} ${delivery.body.toString()}: ${ajv.errorsText(body.errors)}`);
      for (const header of headers) {
        const value = delivery.headers[header.name.toLowerCase()];
        if (typeof value !== 'string') {
          if (header.required) problems.push(`${type}: no ${header.name}`);
        } else if (!header.check(value)) problems.push(`${type}: ${header.name} ${JSON.stringify(value)}: ${ajv.errorsText(header.check.errors)}`);
      }
      expect(delivery.headers['x-service-event-id']).toBe(id);
    }
    expect(problems).toEqual([]);
  });

  it('refuses a payload that breaks its schema, so the check above can fail', () => {
    const delivery = deliveries.find((d) => JSON.parse(d.body.toString()).type === 'user.created')!;
    const payload = JSON.parse(delivery.body.toString());
    const { body } = validatorFor('user.created');
    expect(body(payload)).toBe(true);
    expect(body({ ...payload, data: { ...payload.data, partyId: undefined } })).toBe(false);
    expect(body({ ...payload, type: 'user.updated' })).toBe(false);
    expect(body({ ...payload, api_version: 'today' })).toBe(false);
    const signature = validatorFor('user.created').headers.find((header) => header.name === 'X-Service-Signature')!;
    expect(signature.check(delivery.headers['x-service-signature'])).toBe(true);
    expect(signature.check('sha1=00')).toBe(false);
  });
});
