import { createHash, createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACME_TENANT_ID, GLOBEX_KEY } from '../test-support/harness.js';
import { startInProcess, type InProcessEmulator } from '../test-support/in-process.js';

/** The bot tokens of fixtures/default.json (the README lists them). */
const ACME_BOT_TOKEN = '7000000001:AAacmeLocalTelegramBotToken000001';
const GLOBEX_BOT_TOKEN = '7000000002:AAglobexLocalTelegramBotToken0002';
const DAY_S = 24 * 60 * 60;

type Fields = Record<string, string | number>;

/** Login Widget data signed as core.telegram.org/widgets/login describes: key = SHA-256(token). */
function signWidget(fields: Fields, token = ACME_BOT_TOKEN): Fields {
  const checkString = Object.keys(fields)
    .sort()
    .map((key) => `${key}=${fields[key]}`)
    .join('\n');
  const secret = createHash('sha256').update(token).digest();
  return { ...fields, hash: createHmac('sha256', secret).update(checkString).digest('hex') };
}

/** Mini App initData signed as core.telegram.org/bots/webapps describes: key = HMAC-SHA256("WebAppData", token). */
function signInitData(params: Record<string, string>, token = ACME_BOT_TOKEN): string {
  const checkString = Object.keys(params)
    .sort()
    .map((key) => `${key}=${params[key]}`)
    .join('\n');
  const secret = createHmac('sha256', 'WebAppData').update(token).digest();
  const hash = createHmac('sha256', secret).update(checkString).digest('hex');
  return new URLSearchParams({ ...params, hash }).toString();
}

describe('Telegram sign-in', () => {
  let svc: InProcessEmulator;
  beforeAll(async () => {
    svc = await startInProcess();
  });
  afterAll(() => svc.close());

  const nowS = () => Math.floor(svc.emulator.rt.clock.nowMs() / 1000);
  const widget = (id: number, extra: Fields = {}) =>
    signWidget({
      id,
      first_name: 'Ada',
      last_name: 'Lovelace',
      username: `ada${id}`,
      photo_url: 'https://t.me/i/userpic/320/ada.jpg',
      auth_date: nowS(),
      ...extra,
    });
  const initData = (id: number, token = ACME_BOT_TOKEN, authDate = nowS()) =>
    signInitData(
      {
        query_id: 'AAHdF6IQAAAAAN0XohDhrOrc',
        user: JSON.stringify({ id, first_name: 'Grace', last_name: 'Hopper', username: `grace${id}`, language_code: 'en', allows_write_to_pm: true }),
        auth_date: String(authDate),
        signature: 'Ow6Qy0pGDMbF1b9cSNPxw2iUaSw3rQxAaPwZoCzLJwHDaPs7Cs_ZC3m2Cv5RHwIm0vhKKsNIlEOU6IDZ3jqeBg',
      },
      token,
    );
  const verify = (body: unknown, options: { key?: string; headers?: Record<string, string> } = {}) =>
    svc.request('POST', '/auth/telegram/verify', { body, ...options });
  const eventsFor = (userId: string) => svc.emulator.rt.store.ofTenant('events', ACME_TENANT_ID).filter((e) => e.data['userId'] === userId);

  it('widget-config answers the bot username and id, never the token', async () => {
    const res = await svc.request('GET', '/auth/telegram/widget-config');
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ botUsername: 'acme_wallet_dev_bot', botId: '7000000001', configured: true });
    expect(res.text).not.toContain('AAacme');
    const globex = await svc.request('GET', '/auth/telegram/widget-config', { key: GLOBEX_KEY });
    expect(globex.body.data.botUsername).toBe('globex_id_dev_bot');
  });

  it('signs in a new person from Login Widget data (no e-mail, so no user.created), and the same person again', async () => {
    const first = await verify(widget(1001));
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toBe('no-store');
    const { user, session } = first.body.data;
    expect(user).toMatchObject({ name: 'Ada Lovelace', email: null, trustLevel: 'basic' });
    expect(session.token).toMatch(/^st_/);
    // user.created carries email as a string (spec part 2): a user without one is not announced.
    expect(eventsFor(user.id).map((e) => e.type)).toEqual([]);

    const again = await verify(widget(1001, { first_name: 'Ada K.' }));
    expect(again.status).toBe(200);
    expect(again.body.data.user.id).toBe(user.id);
    expect(again.body.data.session.token).not.toBe(session.token);
    expect(eventsFor(user.id).map((e) => e.type)).toEqual([]);
    const sessions = svc.emulator.rt.store.ofTenant('sessions', ACME_TENANT_ID).filter((s) => s.userId === user.id);
    expect(sessions.map((s) => s.method)).toEqual(['telegram', 'telegram']);
    expect((await svc.request('GET', '/mfa/status', { headers: { authorization: `Bearer ${session.token}` } })).status).toBe(200);
  });

  it('accepts fields given as strings, as a form post would send them', async () => {
    const res = await verify(signWidget({ id: '1002', first_name: 'Ada', auth_date: String(nowS()) }));
    expect(res.status).toBe(200);
  });

  const tampered: Array<[string, (data: Fields) => Fields]> = [
    ['id', (d) => ({ ...d, id: 1099 })],
    ['first_name', (d) => ({ ...d, first_name: 'Eve' })],
    ['last_name', (d) => ({ ...d, last_name: 'Mallory' })],
    ['username', (d) => ({ ...d, username: 'eve' })],
    ['photo_url', (d) => ({ ...d, photo_url: 'https://evil.example/x.jpg' })],
    ['auth_date', (d) => ({ ...d, auth_date: Number(d['auth_date']) + 1 })],
    ['hash', (d) => ({ ...d, hash: String(d['hash']).replace(/^./, (c) => (c === 'a' ? 'b' : 'a')) })],
    ['an added field', (d) => ({ ...d, is_admin: 'true' })],
    ['a removed field', ({ username: _dropped, ...d }) => d],
  ];
  it.each(tampered)('widget data with %s tampered is 401 invalid_telegram_auth', async (_field, tamper) => {
    const res = await verify(tamper(widget(1003)));
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('invalid_telegram_auth');
  });

  it('widget data signed with another bot token is 401', async () => {
    const res = await verify(signWidget({ id: 1004, first_name: 'Ada', auth_date: nowS() }, GLOBEX_BOT_TOKEN));
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('invalid_telegram_auth');
  });

  it('stale data (auth_date older than 24 h on the emulator clock) is 401 telegram_auth_expired', async () => {
    const old = await verify(signWidget({ id: 1005, first_name: 'Ada', auth_date: nowS() - DAY_S - 60 }));
    expect(old.status).toBe(401);
    expect(old.body.code).toBe('telegram_auth_expired');

    const data = widget(1005);
    const signedMiniApp = initData(2005);
    svc.emulator.rt.clock.advance((DAY_S + 60) * 1000);
    for (const body of [data, { initData: signedMiniApp }]) {
      const res = await verify(body);
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('telegram_auth_expired');
    }
    expect((await verify(widget(1005))).status).toBe(200);
  });

  it('signs in from Mini App initData', async () => {
    const res = await verify({ initData: initData(2001) });
    expect(res.status).toBe(200);
    expect(res.body.data.user).toMatchObject({ name: 'Grace Hopper', trustLevel: 'basic' });
    const again = await verify({ initData: initData(2001) });
    expect(again.body.data.user.id).toBe(res.body.data.user.id);
  });

  it('keeps tenants apart: the same Telegram id is another user in Globex, signed with its bot', async () => {
    const acme = await verify({ initData: initData(2002) });
    const globex = await verify({ initData: initData(2002, GLOBEX_BOT_TOKEN) }, { key: GLOBEX_KEY });
    expect(globex.status).toBe(200);
    expect(globex.body.data.user.id).not.toBe(acme.body.data.user.id);
    expect((await verify({ initData: initData(2003, GLOBEX_BOT_TOKEN) })).status).toBe(401);
  });

  const tamperedInitData: Array<[string, (params: URLSearchParams) => void]> = [
    ['user', (p) => p.set('user', p.get('user')!.replace('"id":2010', '"id":2099'))],
    ['auth_date', (p) => p.set('auth_date', String(Number(p.get('auth_date')) - 1))],
    ['query_id', (p) => p.set('query_id', 'AAAAAAAAAAAAAAAAAAAAAAAA')],
    ['signature', (p) => p.set('signature', 'x')],
    ['hash', (p) => p.set('hash', '0'.repeat(64))],
    ['no hash', (p) => p.delete('hash')],
    ['an added field', (p) => p.set('start_param', 'admin')],
  ];
  it.each(tamperedInitData)('initData with %s tampered is 401 invalid_telegram_auth', async (_field, tamper) => {
    const params = new URLSearchParams(initData(2010));
    tamper(params);
    const res = await verify({ initData: params.toString() });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('invalid_telegram_auth');
  });

  it('links a Telegram account to the signed-in user (user.updated); linking it to another user is 409', async () => {
    const guest = (await svc.request('POST', '/guests', { body: {} })).body.data;
    const owner = (await svc.request('POST', `/guests/${guest.id}/convert`, { body: { email: 'tg.owner@example.com' } })).body.data;
    const linked = await verify(widget(3001), { headers: { authorization: `Bearer ${owner.session.token}` } });
    expect(linked.status).toBe(200);
    expect(linked.body.data.user.id).toBe(owner.user.id);
    expect(eventsFor(owner.user.id).map((e) => e.type)).toContain('user.updated');
    expect(eventsFor(owner.user.id).filter((e) => e.type === 'user.created')).toHaveLength(1);
    expect((await verify(widget(3001))).body.data.user.id).toBe(owner.user.id);

    const otherGuest = (await svc.request('POST', '/guests', { body: {} })).body.data;
    const other = (await svc.request('POST', `/guests/${otherGuest.id}/convert`, { body: { email: 'tg.other@example.com' } })).body.data;
    const clash = await verify(widget(3001), { headers: { authorization: `Bearer ${other.session.token}` } });
    expect(clash.status).toBe(409);
    const badSession = await verify(widget(3002), { headers: { authorization: 'Bearer st_unknown' } });
    expect(badSession.status).toBe(401);
    expect(badSession.body.code).toBe('invalid_session');
  });

  it.each([
    [{}, 400],
    [{ initData: '' }, 400],
    [{ id: 'abc', auth_date: 1, hash: 'x' }, 400],
    [{ id: 1, auth_date: 1 }, 400],
  ])('rejects the malformed body %j', async (body, status) => {
    const res = await verify(body);
    expect(res.status).toBe(status);
    expect(res.body.code).toBe('validation_error');
  });
});
