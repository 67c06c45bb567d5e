/**
 * The emulator clock as a user meets it (DESIGN D10): it survives a
 * restart of `svc serve` — a clean stop or kill -9 — in its data dir, `--start-time` and
 * `--clock-speed` still override it, and the errors whose verdict depends on it name it.
 */
import { createHash, createHmac } from 'node:crypto';
import { rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Clock } from '../src/clock/clock.js';
import { CLOCK_FILE, ClockFileError, openClock, readClockState } from '../src/clock/persisted.js';
import { ACME_KEY, sendRequest, startTestEmulator, tempDataDir, type TestEmulator } from '../src/test-support/harness.js';
import { startReceiver, type TestReceiver } from '../src/test-support/receiver.js';
import { ensureBuilt, startServeProcess, type ServeProcess } from '../src/test-support/serve-process.js';
import { asUser, signIn } from '../src/test-support/signed-in.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const ACME_BOT_TOKEN = '7000000001:AAacmeLocalTelegramBotToken000001';

describe('the clock as state of its own', () => {
  it('goes on from a stored state as if it had kept running, and a given speed or start time wins', () => {
    let real = 1_000_000;
    const realNow = () => real;
    const first = new Clock({ realNow, startTime: new Date(5_000_000), speed: 60 });
    real += 1000;
    expect(first.nowMs()).toBe(5_060_000);
    const state = first.state();

    real += 1000;
    expect(new Clock({ realNow, resume: state }).nowMs()).toBe(5_120_000);
    const slower = new Clock({ realNow, resume: state, speed: 1 });
    expect(slower.nowMs()).toBe(5_120_000);
    expect(slower.speed).toBe(1);
    real += 1000;
    expect(slower.nowMs()).toBe(5_121_000);
    expect(new Clock({ realNow, resume: state, startTime: new Date(42) }).nowMs()).toBe(42);
  });

  it('stores itself in the data dir on every change, and refuses a damaged file with its path', () => {
    const dir = tempDataDir();
    try {
      const clock = openClock(dir, { startTime: new Date('2026-01-01T00:00:00Z') });
      clock.advance(DAY_MS);
      const stored = readClockState(dir)!;
      expect(new Clock({ resume: stored }).nowMs() - clock.nowMs()).toBeLessThan(1000);
      clock.setSpeed(30);
      expect(readClockState(dir)!.speed).toBe(30);
      // Opened again as stored: nothing to write, so the file stays as it was; a given speed is written at once.
      const before = statSync(join(dir, CLOCK_FILE));
      expect(openClock(dir).speed).toBe(30);
      expect(statSync(join(dir, CLOCK_FILE)).ino).toBe(before.ino);
      expect(openClock(dir, { speed: 60 }).speed).toBe(60);
      expect(readClockState(dir)!.speed).toBe(60);
      expect(statSync(join(dir, CLOCK_FILE)).ino).not.toBe(before.ino);

      writeFileSync(join(dir, CLOCK_FILE), '{"realMs":1,');
      expect(() => openClock(dir)).toThrow(ClockFileError);
      expect(() => openClock(dir)).toThrow(`${join(dir, CLOCK_FILE)} is not JSON`);
      writeFileSync(join(dir, CLOCK_FILE), '{"realMs":1,"emulatedMs":2,"speed":0}');
      expect(() => openClock(dir)).toThrow(/does not hold realMs, emulatedMs and a positive speed/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('svc serve restarted on the same data dir', () => {
  const dataDir = tempDataDir();
  let receiver: TestReceiver;
  let svc: ServeProcess | undefined;
  beforeAll(async () => {
    await ensureBuilt();
    receiver = await startReceiver(() => 500);
  });
  afterAll(async () => {
    svc?.child.kill('SIGKILL');
    await receiver.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const call = (method: string, path: string, body?: unknown) =>
    sendRequest(path.startsWith('/_') ? `${svc!.origin}${path}` : `${svc!.baseUrl}${path}`, method, { key: ACME_KEY, ...(body === undefined ? {} : { body }) });
  const emulatorNow = async () => Date.parse((await call('GET', '/_emulator/clock')).body.data.now);

  it('keeps an advanced clock across kill -9 and a clean stop, so a scheduled retry is still a minute away', async () => {
    svc = await startServeProcess(['--data-dir', dataDir]);
    await call('POST', '/_emulator/clock/advance', { by: '1d' });
    const hook = await call('POST', '/webhooks', { url: receiver.url, events: ['user.created'] });
    await call('POST', '/users', { email: 'clock-restart@example.com' });
    await receiver.waitFor(1);
    // The receiver holds the attempt before the emulator has recorded its answer and the retry: wait for the record.
    const nextAttemptAt = async () =>
      ((await call('GET', `/webhooks/${hook.body.data.id}/deliveries`)).body.data as Array<{ attempts: unknown[]; nextAttemptAt: string | null }>).find(
        (d) => d.attempts.length === 1,
      )?.nextAttemptAt ?? null;
    await expect.poll(nextAttemptAt, { timeout: 10_000 }).not.toBeNull();
    const retryAt = Date.parse((await nextAttemptAt())!);
    expect(retryAt - (await emulatorNow())).toBeLessThanOrEqual(60_000);

    svc.child.kill('SIGKILL');
    await svc.exited;
    svc = await startServeProcess(['--data-dir', dataDir]);
    const afterKill = await emulatorNow();
    expect(afterKill - Date.now()).toBeGreaterThan(DAY_MS - 60_000);
    expect(afterKill - Date.now()).toBeLessThan(DAY_MS + 60_000);
    expect(retryAt - afterKill).toBeLessThanOrEqual(60_000);

    svc.child.kill('SIGTERM');
    await svc.exited;
    svc = await startServeProcess(['--data-dir', dataDir]);
    expect((await emulatorNow()) - Date.now()).toBeGreaterThan(DAY_MS - 60_000);
  });

  it('keeps the speed unless --clock-speed is given, and --start-time overrides the stored time', async () => {
    await call('POST', '/_emulator/clock', { speed: 60 });
    svc!.child.kill('SIGKILL');
    await svc!.exited;
    svc = await startServeProcess(['--data-dir', dataDir]);
    expect((await call('GET', '/_emulator/clock')).body.data.speed).toBe(60);

    svc.child.kill('SIGTERM');
    await svc.exited;
    svc = await startServeProcess(['--data-dir', dataDir, '--start-time', '2030-01-01T00:00:00Z', '--clock-speed', '1']);
    const clock = (await call('GET', '/_emulator/clock')).body.data as { now: string; speed: number };
    expect(clock.speed).toBe(1);
    expect(clock.now.startsWith('2030-01-01T00:00:0')).toBe(true);
  });
});

describe('errors judged on the emulator clock name its time', () => {
  let svc: TestEmulator;
  beforeAll(async () => {
    svc = await startTestEmulator();
  });
  afterAll(() => svc.close());

  it('a TOTP code made for real time after svc clock advance: invalid_code with emulatorNow and how to make the code', async () => {
    const who = await signIn(svc);
    const call = asUser(svc, who);
    const setup = await call('POST', '/mfa/setup', {});
    const totp = new TOTP({ secret: Secret.fromBase32(setup.body.data.secret), algorithm: 'SHA1', digits: 6, period: 30 });
    // Less than the session's 24 h TTL, far more than TOTP's ±1 step.
    await svc.request('POST', '/_emulator/clock/advance', { body: { by: '2h' } });
    const answer = await call('POST', '/mfa/verify-setup', { code: totp.generate({ timestamp: Date.now() }) });
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe('invalid_code');
    const detail = answer.body.details[0];
    expect(Math.abs(Date.parse(detail.emulatorNow) - svc.emulator.rt.clock.nowMs())).toBeLessThan(5000);
    expect(detail.path).toBe('code');
    expect(detail.message).toMatch(/emulator clock, now \S+ \(which is 2 h ahead of real time\)/);
    expect(detail.message).toContain('oathtool --totp -b --now');
    // The code for the emulator's time is right.
    expect((await call('POST', '/mfa/verify-setup', { code: totp.generate({ timestamp: svc.emulator.rt.clock.nowMs() }) })).status).toBe(200);
  });

  it('Telegram data signed with real time after the clock moved 2 days: telegram_auth_expired with emulatorNow', async () => {
    await svc.request('POST', '/_emulator/clock/advance', { body: { by: '2d' } });
    const fields: Record<string, string | number> = { id: 7001, first_name: 'Ada', auth_date: Math.floor(Date.now() / 1000) };
    const checkString = Object.keys(fields)
      .sort()
      .map((key) => `${key}=${fields[key]}`)
      .join('\n');
    const secret = createHash('sha256').update(ACME_BOT_TOKEN).digest();
    const hash = createHmac('sha256', secret).update(checkString).digest('hex');
    const answer = await svc.request('POST', '/auth/telegram/verify', { body: { ...fields, hash } });
    expect(answer.status).toBe(401);
    expect(answer.body.code).toBe('telegram_auth_expired');
    expect(answer.body.details[0]).toMatchObject({ path: 'auth_date', emulatorNow: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
    expect(answer.body.details[0].message).toContain('svc clock get');
  });
});
