import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACME_TENANT_ID, GLOBEX_KEY } from '../test-support/harness.js';
import { startInProcess, type InProcessEmulator } from '../test-support/in-process.js';
import { startReceiver, type TestReceiver } from '../test-support/receiver.js';
import { asUser, claimWallet, signIn } from '../test-support/signed-in.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A scripted history of the Acme tenant over three days of the emulator clock, far from the
 * fixture's dates, then analytics for each period must show exactly it.
 */
describe('analytics after a scripted history', () => {
  let svc: InProcessEmulator;
  let ok: TestReceiver;
  let failing: TestReceiver;
  /** Acme API calls made per day, counted as the script makes them. */
  const calls = new Map<string, number>();
  const today = () => svc.emulator.rt.clock.iso().slice(0, 10);
  const api = async (method: string, path: string, body?: unknown) => {
    calls.set(today(), (calls.get(today()) ?? 0) + 1);
    const res = await svc.request(method, path, body === undefined ? {} : { body });
    expect(res.status, `${method} ${path}: ${res.text}`).toBeLessThan(300);
    return res;
  };
  /** Waits until every Acme delivery has had its first attempt. */
  const settle = async () => {
    for (let i = 0; i < 200; i++) {
      if (svc.emulator.rt.store.ofTenant('deliveries', ACME_TENANT_ID).every((d) => d.attempts.length > 0)) return;
      await sleep(20);
    }
    throw new Error('deliveries did not settle');
  };
  const bump = (n: number) => calls.set(today(), (calls.get(today()) ?? 0) + n);
  const advance = async (by: string) => {
    const res = await svc.request('POST', '/_emulator/clock/advance', { key: null, body: { by } });
    expect(res.status).toBe(200);
  };

  beforeAll(async () => {
    ok = await startReceiver(() => 200);
    failing = await startReceiver(() => 500);
    svc = await startInProcess({ clock: { startTime: new Date('2027-01-10T09:00:00.000Z') } });

    // 2027-01-10: the fixture's guest session, opened at the start; two users, one guest; deliveries: 2 succeed, the guest's will die.
    await api('POST', '/webhooks', { url: ok.url, events: ['user.created'] });
    await api('POST', '/webhooks', { url: failing.url, events: ['guest.created'] });
    await api('POST', '/users', { email: 'ann@day0.test', name: 'Ann' });
    await api('POST', '/users', { email: 'ben@day0.test' });
    await api('POST', '/guests', {});
    await settle();

    // 2027-02-20: two guests, one converted (a new user, a sign-in by conversion).
    await advance('41d');
    const guest = await api('POST', '/guests', {});
    await api('POST', '/guests', {});
    await api('POST', `/guests/${guest.body.data.id}/convert`, { email: 'cara@day1.test', name: 'Cara' });
    await settle();

    // 2027-03-01 (today): a user, a guest whose delivery has failed once; two users signed in
    // by passkey who claim their wallets; a delegate that completes 3 transactions and fails 1.
    await advance('9d');
    await api('POST', '/users', { email: 'dan@day2.test' });
    await api('POST', '/guests', {});
    const signedIn = [await signIn(svc), await signIn(svc)];
    for (const who of signedIn) await claimWallet(svc, who);
    bump(4); // two POST /users and two wallet claims
    const walletId = signedIn[0]!.user.walletId;
    const opened = await asUser(svc, signedIn[0]!)('POST', '/delegated-sessions', {
      walletId,
      permissions: { templates: ['*'], choices: ['*'] },
      expiresIn: '1h',
    });
    expect(opened.status).toBe(201);
    const execute = (command: unknown) =>
      svc.request('POST', `/delegated-sessions/${opened.body.data.id}/execute`, {
        headers: { authorization: `Bearer ${opened.body.data.token}` },
        body: { command },
      });
    for (let i = 0; i < 3; i++) expect((await execute({ create: { templateId: '#pkg:Iou:Iou', payload: { n: i } } })).body.data.status).toBe('completed');
    expect((await execute({ exercise: { contractId: 'ctr_missing', choice: 'Transfer' } })).body.data.status).toBe('failed');
    bump(5); // the delegated session and four commands
    await svc.request('POST', '/users', { key: GLOBEX_KEY, body: { email: 'other@globex.test' } });
    await settle();
  });
  afterAll(async () => {
    await svc.close();
    await ok.close();
    await failing.close();
  });

  const day0 = {
    date: '2027-01-10',
    newUsers: 2,
    activeUsers: 2,
    signIns: 2,
    walletsCreated: 0,
    transactions: 0,
    deliveries: { succeeded: 2, failed: 0, dead: 1, pending: 0 },
  };
  const day1 = {
    date: '2027-02-20',
    newUsers: 1,
    activeUsers: 2,
    signIns: 3,
    walletsCreated: 0,
    transactions: 0,
    deliveries: { succeeded: 1, failed: 0, dead: 2, pending: 0 },
  };
  const day2 = {
    date: '2027-03-01',
    newUsers: 3,
    activeUsers: 3,
    signIns: 3,
    walletsCreated: 2,
    transactions: 3,
    deliveries: { succeeded: 3, failed: 1, dead: 0, pending: 0 },
  };

  it.each([
    ['7d', 7, '2027-02-23', [day2], { newUsers: 3, activeUsers: 3, signIns: 3, signInsByMethod: { passkey: 2, telegram: 0, guest: 1, convert: 0 } }],
    ['30d', 30, '2027-01-31', [day1, day2], { newUsers: 4, activeUsers: 5, signIns: 6, signInsByMethod: { passkey: 2, telegram: 0, guest: 3, convert: 1 } }],
    [
      '90d',
      90,
      '2026-12-02',
      [day0, day1, day2],
      { newUsers: 6, activeUsers: 7, signIns: 8, signInsByMethod: { passkey: 2, telegram: 0, guest: 5, convert: 1 } },
    ],
  ] as const)('period %s: %i daily buckets from %s holding exactly the scripted days', async (period, length, first, scripted, totals) => {
    const active: (typeof day0)[] = [...scripted];
    calls.set(today(), (calls.get(today()) ?? 0) + 1); // this very call counts too
    const res = await svc.request('GET', `/analytics?period=${period}`);
    expect(res.status).toBe(200);
    const data = res.body.data;
    expect(data.period).toBe(period);
    expect(data.from).toBe(`${first}T00:00:00.000Z`);
    expect(data.to.slice(0, 10)).toBe('2027-03-01');
    expect(Date.parse(data.to)).toBeLessThanOrEqual(svc.emulator.rt.clock.nowMs());
    expect(data.series).toHaveLength(length);
    expect(data.series[0].date).toBe(first);
    expect(data.series.at(-1).date).toBe('2027-03-01');

    const byDate = new Map<string, Record<string, unknown>>(data.series.map((d: { date: string }) => [d.date, d]));
    for (const day of active) expect(byDate.get(day.date)).toEqual({ ...day, apiCalls: calls.get(day.date) });
    const quiet = data.series.filter((d: { date: string }) => !active.some((a) => a.date === d.date));
    for (const day of quiet) {
      expect(day).toEqual({
        date: day.date,
        newUsers: 0,
        activeUsers: 0,
        signIns: 0,
        walletsCreated: 0,
        transactions: 0,
        apiCalls: 0,
        deliveries: { succeeded: 0, failed: 0, dead: 0, pending: 0 },
      });
    }

    const sum = (pick: (d: typeof day0) => number) => active.reduce((n, d) => n + pick(d), 0);
    expect(data.totals).toEqual({
      ...totals,
      walletsCreated: sum((d) => d.walletsCreated),
      transactions: sum((d) => d.transactions),
      apiCalls: active.reduce((n, d) => n + (calls.get(d.date) ?? 0), 0),
      deliveries: {
        succeeded: sum((d) => d.deliveries.succeeded),
        failed: sum((d) => d.deliveries.failed),
        dead: sum((d) => d.deliveries.dead),
        pending: 0,
      },
    });
  });

  it.each(['1y', '7D', '14d', '', 'seven'])('answers 400 for period=%j', async (period) => {
    const res = await svc.request('GET', `/analytics?period=${encodeURIComponent(period)}`);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_error');
    expect(res.body.details[0].path).toBe('period');
  });

  it('answers 400 without a period', async () => {
    expect((await svc.request('GET', '/analytics')).status).toBe(400);
  });

  it('shows another tenant only its own history', async () => {
    const res = await svc.request('GET', '/analytics?period=7d', { key: GLOBEX_KEY });
    expect(res.body.data.totals).toMatchObject({ newUsers: 1, signIns: 0, walletsCreated: 0, transactions: 0, apiCalls: 2 });
  });
});
