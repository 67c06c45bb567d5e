/** The request journal on its own: bounded, filtered, and bodies kept with the secrets their schemas mark hidden. */
import { describe, expect, it } from 'vitest';
import { REDACTED } from '../schemas/secret.js';
import { journalBody, JOURNAL_BODY_CHARS, RequestJournal } from './request-journal.js';

function answered(journal: RequestJournal, method: string, path: string, status: number, tenantId: string | null = null, answerText = '{"data":{}}') {
  const entry = journal.begin(method, path, '', `req_${path}`, Date.parse('2026-11-21T10:00:00.000Z'));
  const answer = new Response(answerText, { headers: { 'content-type': 'application/json; charset=utf-8' } });
  Object.assign(entry, { status, tenantId, answer, endedAt: entry.startedAt + 1.5 });
  journal.add(entry);
  return entry;
}

describe('RequestJournal', () => {
  it('keeps the newest `capacity` requests, oldest first', async () => {
    const journal = new RequestJournal(3);
    for (let i = 1; i <= 100; i++) answered(journal, 'GET', `/v1/users/${i}`, 200);
    expect((await journal.list()).map((entry) => entry.path)).toEqual(['/v1/users/98', '/v1/users/99', '/v1/users/100']);
  });

  it.each([
    [{ tenant: 'ten_a' }, ['/v1/users', '/v1/users/1']],
    [{ method: 'POST' }, ['/v1/users', '/v1/apps']],
    [{ path: '/v1/users' }, ['/v1/users']],
    [{ path: '/v1/users*' }, ['/v1/users', '/v1/users/1']],
    [{ status: '4xx' }, ['/v1/users/1']],
    [{ status: '201' }, ['/v1/users', '/v1/apps']],
    [{ after: 2 }, ['/v1/apps']],
    [{ limit: 1 }, ['/v1/apps']],
    [{ request_id: 'req_/v1/apps' }, ['/v1/apps']],
  ])('filters by %j', async (filter, paths) => {
    const journal = new RequestJournal(10);
    answered(journal, 'POST', '/v1/users', 201, 'ten_a');
    answered(journal, 'GET', '/v1/users/1', 404, 'ten_a');
    answered(journal, 'POST', '/v1/apps', 201, 'ten_b');
    expect((await journal.list(filter)).map((entry) => entry.path)).toEqual(paths);
  });

  it('makes an entry with its times, duration and bodies when read, and forgets one tenant', async () => {
    const journal = new RequestJournal(10);
    const entry = answered(journal, 'POST', '/v1/api-keys', 201, 'ten_a', '{"data":{"key":"sk_test_x","name":"ci"}}');
    entry.sent = Promise.resolve('{"name":"ci"}');
    answered(journal, 'GET', '/v1/users', 200, 'ten_b');
    const [read] = await journal.list({ tenant: 'ten_a' });
    expect(read).toMatchObject({
      emulatedTime: '2026-11-21T10:00:00.000Z',
      durationMs: 1.5,
      requestBody: { name: 'ci' },
      responseBody: { data: { key: REDACTED, name: 'ci' } },
    });
    expect(journal.clear('ten_a')).toBe(1);
    expect((await journal.list()).map((e) => e.tenantId)).toEqual(['ten_b']);
  });

  it('keeps nothing with a capacity of 0', async () => {
    const journal = new RequestJournal(0);
    answered(journal, 'GET', '/v1/users', 200);
    expect(await journal.list()).toEqual([]);
  });
});

describe('bodies', () => {
  it('hides what the operation marks, at any depth, and nothing else: an error code, a null, another field of the same name', async () => {
    const journal = new RequestJournal(10);
    const body = (value: unknown) => JSON.stringify(value);
    const wallet = answered(
      journal,
      'POST',
      '/v1/users/me/wallet',
      201,
      'ten_a',
      body({ data: { id: 'wal_1', publicKey: 'ab', deviceShare: 'AAAA', recoveryShare: 'BBBB' } }),
    );
    wallet.sent = Promise.resolve('{}');
    const verify = answered(
      journal,
      'POST',
      '/v1/mfa/verify',
      400,
      'ten_a',
      body({ error: 'wrong', code: 'invalid_code', details: [{ path: 'code', message: 'x' }] }),
    );
    verify.sent = Promise.resolve(body({ challengeId: 'mfc_1', code: '123456' }));
    const recover = answered(journal, 'POST', '/v1/mpc/recover', 200, 'ten_a', body({ data: { walletId: 'wal_1', publicKey: 'ab', privateKey: 'cd' } }));
    recover.sent = Promise.resolve(body({ walletId: 'wal_1', shares: ['AAAA', null, 'BBBB'] }));
    const hook = answered(journal, 'PATCH', '/v1/webhooks/whk_1', 200, 'ten_a', body({ data: { id: 'whk_1', secret: 'whsec_x', url: 'http://x' } }));
    hook.sent = Promise.resolve(body({ rotateSecret: true, secret: 'not marked in this body' }));
    const [walletRead, verifyRead, recoverRead, hookRead] = await journal.list();
    expect(walletRead?.responseBody).toEqual({ data: { id: 'wal_1', publicKey: 'ab', deviceShare: REDACTED, recoveryShare: REDACTED } });
    expect(verifyRead?.requestBody).toEqual({ challengeId: 'mfc_1', code: REDACTED });
    expect(verifyRead?.responseBody).toEqual({ error: 'wrong', code: 'invalid_code', details: [{ path: 'code', message: 'x' }] });
    expect(recoverRead?.requestBody).toEqual({ walletId: 'wal_1', shares: [REDACTED, null, REDACTED] });
    expect(recoverRead?.responseBody).toEqual({ data: { walletId: 'wal_1', publicKey: 'ab', privateKey: REDACTED } });
    expect(hookRead?.requestBody).toEqual({ rotateSecret: true, secret: 'not marked in this body' });
    expect(hookRead?.responseBody).toEqual({ data: { id: 'whk_1', secret: REDACTED, url: 'http://x' } });
  });

  it('hides a marked field of a body the schema refuses, and leaves a path that leads nowhere alone', async () => {
    const journal = new RequestJournal(10);
    const sent = answered(journal, 'POST', '/v1/mpc/shares', 400, 'ten_a', '{"error":"bad","code":"validation_error","details":[]}');
    sent.sent = Promise.resolve(JSON.stringify({ walletId: 42, share: { not: 'a string' }, extra: 'kept' }));
    const wrong = answered(journal, 'POST', '/v1/mpc/shares', 400, 'ten_a', '[1,2]');
    wrong.sent = Promise.resolve('"share"');
    const [first, second] = await journal.list();
    expect(first?.requestBody).toEqual({ walletId: 42, share: REDACTED, extra: 'kept' });
    expect(first?.responseBody).toMatchObject({ code: 'validation_error' });
    expect(second?.requestBody).toBe('share');
    expect(second?.responseBody).toEqual([1, 2]);
  });

  it('keeps a body nested deeper than the stack would take without walking all of it', () => {
    const deep = `${'['.repeat(8000)}${']'.repeat(8000)}`;
    expect(JSON.stringify(journalBody(deep))).toContain('not kept');
  });

  it('keeps a text that is not JSON as text, cut to size, and says when a JSON body was too large to keep', () => {
    expect(journalBody('')).toBeNull();
    expect(journalBody('plain')).toBe('plain');
    expect(journalBody('x'.repeat(JOURNAL_BODY_CHARS + 5))).toMatch(/… \(16389 characters\)$/);
    expect(journalBody(JSON.stringify({ big: 'y'.repeat(JOURNAL_BODY_CHARS) }))).toMatch(/^\(a JSON body of \d+ characters, not kept\)$/);
  });
});
