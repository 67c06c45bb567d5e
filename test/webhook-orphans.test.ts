/**
 * Deleting a webhook keeps its deliveries: their history and the DLQ stay
 * true, marked as orphaned; nothing more is sent, and an orphan cannot be retried.
 */
import { describe, expect, it } from 'vitest';
import { emulatorWithReceiver } from '../src/test-support/emulator-with-receiver.js';

interface DeadView {
  id: string;
  webhookId: string;
  status: string;
  webhookDeleted: boolean;
  attempts: unknown[];
}

describe('deleting a webhook', () => {
  // The emulator's clock starts at 2026-11-21T10:00Z; the receiver fails every delivery until told otherwise.
  const ctx = emulatorWithReceiver(() => 500);

  const dlq = async () => (await ctx.svc.request('GET', '/_emulator/dlq')).body.data as DeadView[];

  it('keeps its dead deliveries in the DLQ, marked, and refuses to retry them', async () => {
    const hook = (await ctx.svc.request('POST', '/webhooks', { body: { url: ctx.receiver.url, events: ['api_key.created'] } })).body.data;
    await ctx.svc.request('POST', '/api-keys', { body: { name: 'orphan-dead' } });
    await ctx.receiver.waitFor(1);
    await ctx.svc.request('POST', '/_emulator/clock/advance', { body: { by: '2d' } });
    const before = (await dlq()).find((d) => d.webhookId === hook.id)!;
    expect(before).toMatchObject({ status: 'dead', webhookDeleted: false });

    expect((await ctx.svc.request('DELETE', `/webhooks/${hook.id}`)).status).toBe(200);
    const after = (await dlq()).find((d) => d.id === before.id);
    expect(after).toMatchObject({ status: 'dead', webhookDeleted: true, attempts: before.attempts });

    const retry = await ctx.svc.request('POST', `/_emulator/deliveries/${before.id}/retry`);
    expect(retry.status).toBe(409);
    expect(retry.body.error).toContain(`its webhook ${hook.id} was deleted`);
    const all = await ctx.svc.request('POST', '/_emulator/dlq/retry');
    expect(all.status).toBe(200);
    expect((all.body.data as DeadView[]).map((d) => d.id)).not.toContain(before.id);

    const page = await (await fetch(`${ctx.svc.origin}/_emulator/ui/dlq`)).text();
    expect(page).toContain(`${hook.id}</span> (deleted)`);
    const detail = await (await fetch(`${ctx.svc.origin}/_emulator/ui/deliveries/${before.id}`)).text();
    expect(detail).toContain('this delivery is kept for its history');
    expect(detail).not.toContain(`/deliveries/${before.id}/retry`);
  });

  it('gives up a delivery still waiting for a retry: it goes to the DLQ as an orphan and is never sent again', async () => {
    const hook = (await ctx.svc.request('POST', '/webhooks', { body: { url: ctx.receiver.url, events: ['api_key.revoked'] } })).body.data;
    const key = (await ctx.svc.request('POST', '/api-keys', { body: { name: 'orphan-waiting' } })).body.data;
    const sent = ctx.receiver.received.length;
    await ctx.svc.request('DELETE', `/api-keys/${key.id}`);
    await ctx.receiver.waitFor(sent + 1);
    const deliveries = async () => (await ctx.svc.request('GET', `/webhooks/${hook.id}/deliveries`)).body.data as Array<{ id: string; status: string }>;
    // The receiver holds the attempt before the emulator has recorded its answer: wait for the record.
    await expect.poll(async () => (await deliveries())[0]?.status, { timeout: 10_000 }).toBe('failed');
    const [waiting] = await deliveries();

    await ctx.svc.request('DELETE', `/webhooks/${hook.id}`);
    const orphan = (await dlq()).find((d) => d.id === waiting!.id);
    expect(orphan).toMatchObject({ status: 'dead', webhookDeleted: true });
    await ctx.svc.request('POST', '/_emulator/clock/advance', { body: { by: '2d' } });
    expect(ctx.receiver.received.length).toBe(sent + 1);
    expect((await ctx.svc.request('GET', `/webhooks/${hook.id}/deliveries`)).status).toBe(404);
  });
});
