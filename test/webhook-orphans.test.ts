/**
 * Deleting a webhook keeps its deliveries (issue 16 item 7): their history and the DLQ stay
 * true, marked as orphaned; nothing more is sent, and an orphan cannot be retried.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEmulator, type TestEmulator } from '../src/test-support/harness.js';
import { startReceiver, type TestReceiver } from '../src/test-support/receiver.js';

interface DeadView {
  id: string;
  webhookId: string;
  status: string;
  webhookDeleted: boolean;
  attempts: unknown[];
}

describe('deleting a webhook', () => {
  let svc: TestEmulator;
  let receiver: TestReceiver;
  beforeAll(async () => {
    svc = await startTestEmulator({ clock: { startTime: new Date('2026-11-21T10:00:00.000Z') } });
    receiver = await startReceiver(() => 500);
  });
  afterAll(async () => {
    await svc.close();
    await receiver.close();
  });

  const dlq = async () => (await svc.request('GET', '/_emulator/dlq')).body.data as DeadView[];

  it('keeps its dead deliveries in the DLQ, marked, and refuses to retry them', async () => {
    const hook = (await svc.request('POST', '/webhooks', { body: { url: receiver.url, events: ['api_key.created'] } })).body.data;
    await svc.request('POST', '/api-keys', { body: { name: 'orphan-dead' } });
    await receiver.waitFor(1);
    await svc.request('POST', '/_emulator/clock/advance', { body: { by: '2d' } });
    const before = (await dlq()).find((d) => d.webhookId === hook.id)!;
    expect(before).toMatchObject({ status: 'dead', webhookDeleted: false });

    expect((await svc.request('DELETE', `/webhooks/${hook.id}`)).status).toBe(200);
    const after = (await dlq()).find((d) => d.id === before.id);
    expect(after).toMatchObject({ status: 'dead', webhookDeleted: true, attempts: before.attempts });

    const retry = await svc.request('POST', `/_emulator/deliveries/${before.id}/retry`);
    expect(retry.status).toBe(409);
    expect(retry.body.error).toContain(`its webhook ${hook.id} was deleted`);
    const all = await svc.request('POST', '/_emulator/dlq/retry');
    expect(all.status).toBe(200);
    expect((all.body.data as DeadView[]).map((d) => d.id)).not.toContain(before.id);

    const page = await (await fetch(`${svc.origin}/_emulator/ui/dlq`)).text();
    expect(page).toContain(`${hook.id}</span> (deleted)`);
    const detail = await (await fetch(`${svc.origin}/_emulator/ui/deliveries/${before.id}`)).text();
    expect(detail).toContain('this delivery is kept for its history');
    expect(detail).not.toContain(`/deliveries/${before.id}/retry`);
  });

  it('gives up a delivery still waiting for a retry: it goes to the DLQ as an orphan and is never sent again', async () => {
    const hook = (await svc.request('POST', '/webhooks', { body: { url: receiver.url, events: ['api_key.revoked'] } })).body.data;
    const key = (await svc.request('POST', '/api-keys', { body: { name: 'orphan-waiting' } })).body.data;
    const sent = receiver.received.length;
    await svc.request('DELETE', `/api-keys/${key.id}`);
    await receiver.waitFor(sent + 1);
    const [waiting] = (await svc.request('GET', `/webhooks/${hook.id}/deliveries`)).body.data as Array<{ id: string; status: string }>;
    expect(waiting!.status).toBe('failed');

    await svc.request('DELETE', `/webhooks/${hook.id}`);
    const orphan = (await dlq()).find((d) => d.id === waiting!.id);
    expect(orphan).toMatchObject({ status: 'dead', webhookDeleted: true });
    await svc.request('POST', '/_emulator/clock/advance', { body: { by: '2d' } });
    expect(receiver.received.length).toBe(sent + 1);
    expect((await svc.request('GET', `/webhooks/${hook.id}/deliveries`)).status).toBe(404);
  });
});
