/**
 * `svc conformance` at any clock speed and starting time, leaving nothing behind: the
 * whole suite against an emulator whose clock runs at ×3600, then at ×86,400 from another year,
 * each green; the clock's speed is put back and the move said at the end; and the DLQ and every
 * listing are as before the run, but for the users the spec gives no way to delete.
 */
import { describe, expect, it } from 'vitest';
import { conformanceTarget } from '../src/test-support/conformance-target.js';
import { GLOBEX_KEY, type ApiResponse } from '../src/test-support/harness.js';

const target = conformanceTarget('svc-conformance-clock-');

function ok(response: ApiResponse, what: string): ApiResponse {
  expect(response.status, `${what}: ${response.text}`).toBeLessThan(300);
  return response;
}

/** Every page of a paginated listing, as ids. */
async function allIds(path: string): Promise<string[]> {
  const ids: string[] = [];
  for (let page = 1; ; page += 1) {
    const body = ok(await target.svc.request('GET', `${path}?page=${page}&page_size=100`), path).body;
    ids.push(...body.data.map((record: { id: string }) => record.id));
    if (ids.length >= body.total) return ids.sort();
  }
}

/** What a run must leave as it found: each listing, the DLQ, the faults, the tenants, the tenant. */
async function listings() {
  const plain = async (path: string) => ok(await target.svc.request('GET', path), path).body.data;
  const webhooks = await plain('/webhooks');
  return {
    apps: await allIds('/apps'),
    apiKeys: (await plain('/api-keys')).map((key: { id: string; revokedAt?: unknown }) => `${key.id} ${key.revokedAt ? 'revoked' : 'active'}`).sort(),
    webhooks: webhooks.map((hook: { id: string; enabled: boolean }) => `${hook.id} ${hook.enabled}`).sort(),
    deliveries: await Promise.all(webhooks.map(async (hook: { id: string }) => (await plain(`/webhooks/${hook.id}/deliveries`)).length)),
    dlq: (await plain('/_emulator/dlq')).map((d: { id: string; status: string }) => `${d.id} ${d.status}`).sort(),
    faults: await plain('/_emulator/faults'),
    // telegram.sign-in makes a tenant of its own and removes it.
    tenants: (await plain('/_emulator/tenants')).map((tenant: { id: string }) => tenant.id).sort(),
    // Putting the run's settings back is a write of its own: only updatedAt may say so.
    tenant: { ...(await plain('/tenant')), updatedAt: undefined },
  };
}

/** A DLQ that is not empty before the run: a test event to a port nobody listens on, walked to death. */
async function deadLetterBefore(): Promise<void> {
  const hook = ok(
    await target.svc.request('POST', '/webhooks', { body: { url: 'http://127.0.0.1:9/gone', events: ['billing.subscription.updated'] } }),
    'webhook',
  );
  await target.svc.request('POST', `/webhooks/${hook.body.data.id}/test`, { body: {} });
  ok(await target.svc.request('POST', '/_emulator/clock/advance', { body: { by: '3d' } }), 'advance');
  expect((await target.svc.request('GET', '/_emulator/dlq')).body.data.length).toBeGreaterThan(0);
}

interface Report {
  runId: string;
  kept: string[];
  results: Array<{ id: string; outcome: string; reason?: string }>;
  clock: { before: { now: string; speed: number }; after: { now: string; speed: number }; heldAt?: number };
}

describe('svc conformance at any clock speed', () => {
  it.each([
    { speed: 3600, now: undefined },
    { speed: 86_400, now: '2031-02-28T23:59:45Z' },
  ])(
    'passes every check at ×$speed (start $now), puts the speed back, says how far the clock moved and leaves every listing as it was',
    async ({ speed, now }) => {
      if (speed === 3600) await deadLetterBefore();
      ok(await target.svc.request('POST', '/_emulator/clock', { body: { speed, ...(now === undefined ? {} : { now }) } }), 'clock');
      const usersBefore = await allIds('/users');
      const before = await listings();

      const result = await target.runWithReports(`speed-${speed}`, ['--second-api-key', GLOBEX_KEY], 90_000);
      const report = result.report<Report>();
      const bad = report.results.filter((r) => r.outcome !== 'passed' && r.id !== 'rate-limits.429');
      expect(bad.map((r) => `${r.id} ${r.outcome}: ${r.reason}`)).toEqual([]);
      expect(result.code, result.stderr).toBe(0);

      // The run kept the clock at real speed, put the speed back, and said how far it moved.
      expect(report.clock.before.speed).toBe(speed);
      expect(report.clock.heldAt).toBe(1);
      expect((await target.svc.request('GET', '/_emulator/clock')).body.data.speed).toBe(speed);
      expect(result.stdout).toMatch(new RegExp(`Clock: the emulator clock moved \\+\\d+ d .*it ran at ×1 during the run and is back at ×${speed}`));

      // Nothing of the run's making is left, but what it says it keeps: users, and its keys revoked.
      const keptKeys = report.kept.flatMap((entry) => /^API key (\S+), revoked$/.exec(entry)?.[1] ?? []);
      expect(keptKeys.length).toBeGreaterThan(0);
      expect(result.stdout).toContain(`kept ${report.kept.length - keptKeys.length} users and ${keptKeys.length} revoked API keys`);
      const after = await listings();
      expect(after.apiKeys).toEqual([...before.apiKeys, ...keptKeys.map((id) => `${id} revoked`)].sort());
      expect({ ...after, apiKeys: [] }).toEqual({ ...before, apiKeys: [] });
      const newUsers = (await allIds('/users')).filter((id) => !usersBefore.includes(id));
      expect(newUsers.length).toBe(report.kept.length - keptKeys.length);
      // Each is one the report lists as kept (a guest's user has no e-mail or name to carry the run id).
      for (const id of newUsers)
        expect(
          report.kept.some((entry) => entry.includes(id)),
          id,
        ).toBe(true);
    },
    120_000,
  );
});
