/** The request journal on its own: bounded, filtered, and bodies redacted when read. */
import { describe, expect, it } from 'vitest';
import { journalBody, JOURNAL_BODY_CHARS, redact, REDACTED, RequestJournal } from './request-journal.js';

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
  it('redacts secret fields at any depth, and keeps nulls and the rest', () => {
    expect(redact({ data: [{ secret: 'whsec_1', url: 'http://x' }], session: { token: 'st_1', expiresAt: 'later' }, code: null, shares: ['a'] })).toEqual({
      data: [{ secret: REDACTED, url: 'http://x' }],
      session: { token: REDACTED, expiresAt: 'later' },
      code: null,
      shares: REDACTED,
    });
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
