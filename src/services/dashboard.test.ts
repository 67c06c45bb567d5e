import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRuntime } from '../emulator.js';
import type { Runtime } from '../runtime.js';
import { ACME_TENANT_ID, GLOBEX_TENANT_ID } from '../test-support/harness.js';
import { EVENT_TYPES } from '../schemas/words.js';
import { createApiKey, revokeApiKey } from './api-keys.js';
import { createCheckout, createPortal, findCheckout, findPortal } from './billing.js';
import { triggerEvent } from './control.js';
import {
  deadLetterEntries,
  deliveryCounts,
  eventLogPage,
  eventTypes,
  findDelivery,
  findTenant,
  findWebhook,
  storeInfo,
  storeTotals,
  tenantName,
  tenantNames,
  tenantSummaries,
  webhooksByTenant,
} from './dashboard.js';
import { DEFAULT_FIXTURE_PATH, loadFixtureFile, seedFixture } from './seed.js';
import { createWebhook, deleteWebhook } from './webhooks.js';

/** Nothing listens on port 1: every attempt fails at once, and with no retries the delivery is dead. */
const UNREACHABLE = 'http://127.0.0.1:1/hook';

describe('the dashboard read model', () => {
  let rt: Runtime;

  beforeEach(async () => {
    rt = await createRuntime({ inMemory: true, retryScheduleMs: [] });
    await seedFixture(rt, await loadFixtureFile(DEFAULT_FIXTURE_PATH));
  });

  afterEach(async () => {
    await rt.close();
  });

  it('summarises each tenant with its active API keys, apps, users and webhooks', async () => {
    const spare = await createApiKey(rt, ACME_TENANT_ID, 'spare');
    await revokeApiKey(rt, ACME_TENANT_ID, spare.id);
    await createWebhook(rt, GLOBEX_TENANT_ID, { url: UNREACHABLE, events: ['user.created'] });

    expect(
      tenantSummaries(rt).map(({ id, name, plan, activeApiKeys, apps, users, webhooks }) => ({ id, name, plan, activeApiKeys, apps, users, webhooks })),
    ).toEqual([
      // Acme's is the fixture's (switched off); Globex's the one made above.
      { id: ACME_TENANT_ID, name: 'Acme Wallet', plan: 'pro', activeApiKeys: 1, apps: 3, users: 50, webhooks: 1 },
      { id: GLOBEX_TENANT_ID, name: 'Globex Identity', plan: 'pro', activeApiKeys: 1, apps: 2, users: 50, webhooks: 1 },
    ]);
    expect(tenantNames(rt)).toEqual([
      { id: ACME_TENANT_ID, name: 'Acme Wallet' },
      { id: GLOBEX_TENANT_ID, name: 'Globex Identity' },
    ]);
    expect(storeTotals(rt)).toEqual({ tenants: 2, users: 100, webhooks: 2, deliveriesWaiting: 0, deadLetters: 0, events: 2 }); // api_key.created, api_key.revoked
  });

  it.each([
    { tenantId: ACME_TENANT_ID, name: 'Acme Wallet' },
    { tenantId: 'ten_gone0000000000000001', name: 'ten_gone0000000000000001' },
  ])('names tenant $tenantId "$name"', ({ tenantId, name }) => {
    expect(tenantName(rt, tenantId)).toBe(name);
  });

  it('finds a tenant and a webhook by id as their views, without the signing secret', async () => {
    const webhook = await createWebhook(rt, ACME_TENANT_ID, { url: UNREACHABLE, events: ['*'] });
    expect(findTenant(rt, ACME_TENANT_ID)?.settings.telegram).toEqual({ botUsername: 'acme_wallet_dev_bot', botTokenSet: true });
    expect(findTenant(rt, 'ten_missing')).toBeUndefined();
    const found = findWebhook(rt, webhook.id);
    expect(found).toMatchObject({ id: webhook.id, tenantId: ACME_TENANT_ID, url: UNREACHABLE });
    expect(found).not.toHaveProperty('secret');
    expect(findWebhook(rt, 'whk_missing')).toBeUndefined();
    // In the store's order: the fixture's webhook was seeded first.
    expect(webhooksByTenant(rt).map(({ tenant, webhooks }) => [tenant.name, webhooks.map((w) => w.id)])).toEqual([
      ['Acme Wallet', ['whk_acme0000000000000001', webhook.id]],
      ['Globex Identity', []],
    ]);
  });

  it('counts deliveries by status, shows one with its webhook and payload, and lists the DLQ, before and after the webhook is deleted', async () => {
    const webhook = await createWebhook(rt, ACME_TENANT_ID, { url: UNREACHABLE, events: ['user.created'] });
    const { event, deliveries } = await triggerEvent(rt, { type: 'user.created', tenantId: ACME_TENANT_ID });
    const id = deliveries[0]!.id;

    expect(deliveryCounts(rt, ACME_TENANT_ID, webhook.id)).toEqual({ pending: 0, failed: 0, succeeded: 0, dead: 1 });
    expect(findDelivery(rt, id)).toMatchObject({
      id,
      status: 'dead',
      tenantId: ACME_TENANT_ID,
      orphanedAt: null,
      webhookUrl: UNREACHABLE,
      payload: { id: event.id, type: 'user.created' },
    });
    expect(deadLetterEntries(rt)).toMatchObject([{ id, tenantName: 'Acme Wallet', webhookUrl: UNREACHABLE, webhookDeleted: false }]);
    expect(storeTotals(rt)).toMatchObject({ deadLetters: 1, events: 1 });

    await deleteWebhook(rt, ACME_TENANT_ID, webhook.id);
    expect(findDelivery(rt, id)).toMatchObject({ webhookUrl: null, orphanedAt: expect.any(String) });
    expect(deadLetterEntries(rt)).toMatchObject([{ id, webhookUrl: null, webhookDeleted: true }]);
    expect(findDelivery(rt, 'dlv_missing')).toBeUndefined();
  });

  it("pages the event log, newest first, with each event's tenant and deliveries", async () => {
    await createWebhook(rt, GLOBEX_TENANT_ID, { url: UNREACHABLE, events: ['*'] });
    const first = await triggerEvent(rt, { type: 'user.created', tenantId: ACME_TENANT_ID });
    const second = await triggerEvent(rt, { type: 'wallet.created', tenantId: GLOBEX_TENANT_ID });
    await triggerEvent(rt, { type: 'user.created', tenantId: ACME_TENANT_ID });

    const page = eventLogPage(rt, {}, { offset: 1, limit: 1 });
    expect(page.total).toBe(3);
    expect(page.entries).toEqual([
      {
        id: second.event.id,
        type: 'wallet.created',
        tenantId: GLOBEX_TENANT_ID,
        tenantName: 'Globex Identity',
        createdAt: second.event.created_at,
        deliveries: 1,
        payload: expect.objectContaining({ id: second.event.id, type: 'wallet.created' }),
      },
    ]);
    const acme = eventLogPage(rt, { tenant: ACME_TENANT_ID, type: 'user.created' }, { offset: 0, limit: 10 });
    expect(acme.total).toBe(2);
    expect(acme.entries.at(-1)).toMatchObject({ id: first.event.id, deliveries: 0 });
    expect(eventTypes(rt)).toEqual([...EVENT_TYPES].sort());
  });

  it('reads where the store keeps its data', () => {
    expect(storeInfo(rt)).toEqual({ store: 'memory', dataDir: null });
  });

  it("finds checkouts and portal sessions for the provider's pages, with their tenant's name", async () => {
    const checkout = await createCheckout(rt, ACME_TENANT_ID, { plan: 'enterprise', successUrl: 'https://app.test/ok', cancelUrl: 'https://app.test/no' });
    const portal = await createPortal(rt, GLOBEX_TENANT_ID, 'https://app.test/back');
    expect(findCheckout(rt, checkout.id)).toMatchObject({ id: checkout.id, plan: 'enterprise', tenantName: 'Acme Wallet' });
    expect(findPortal(rt, portal.id)).toMatchObject({ id: portal.id, returnUrl: 'https://app.test/back', tenantName: 'Globex Identity' });
    expect(findCheckout(rt, 'cs_test_missing')).toBeUndefined();
    expect(findPortal(rt, 'bps_missing')).toBeUndefined();
  });
});
