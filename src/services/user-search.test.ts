import { afterEach, describe, expect, it } from 'vitest';
import { createRuntime } from '../emulator.js';
import type { Runtime } from '../runtime.js';
import { CACHED_TERMS, searchUsers } from './user-search.js';
import { createUser } from './users.js';

const TENANT = 'ten_search000000000001';
let rt: Runtime | undefined;
afterEach(async () => {
  await rt?.close();
});

async function withUsers(people: Array<[string, string | null]>): Promise<Runtime> {
  rt = await createRuntime({ inMemory: true });
  let minute = 0;
  for (const [email, name] of people) {
    await createUser(rt, TENANT, { email, name, trustLevel: 'basic', createdAt: new Date(Date.UTC(2026, 0, 1, 0, minute++)).toISOString() });
  }
  return rt;
}

const emails = (found: ReadonlyArray<{ email: string | null }>) => found.map((user) => user.email);

describe('searchUsers', () => {
  it.each<[string, string[]]>([
    ['ALICE', ['malice@x.test', 'alice@b.test']],
    ['smith', ['bob@b.test']],
    ['@b.test', ['bob@b.test', 'alice@b.test']],
    ['test alice', []], // never across the email/name boundary
    ['', ['malice@x.test', 'bob@b.test', 'alice@b.test']],
    ['nobody', []],
  ])('"%s" finds %j, newest first', async (term, expected) => {
    const runtime = await withUsers([
      ['alice@b.test', 'Alice'],
      ['bob@b.test', 'Bob Smith'],
      ['malice@x.test', null],
    ]);
    expect(emails(searchUsers(runtime, TENANT, term))).toEqual(expected);
  });

  it('finds nothing once a reset has emptied the store, for a tenant nobody wrote to since', async () => {
    const runtime = await withUsers([['gone@g.test', 'Gone']]);
    expect(emails(searchUsers(runtime, TENANT, 'gone'))).toEqual(['gone@g.test']);
    await runtime.store.write(() => runtime.store.clear());
    expect(emails(searchUsers(runtime, TENANT, 'gone'))).toEqual([]);
  });

  it('sees users added after an earlier search, and only the tenant’s own', async () => {
    const runtime = await withUsers([['carol@c.test', 'Carol']]);
    expect(emails(searchUsers(runtime, TENANT, 'carol'))).toEqual(['carol@c.test']);
    await createUser(runtime, TENANT, { email: 'carola@c.test', name: null, trustLevel: 'basic' });
    await createUser(runtime, 'ten_other0000000000001', { email: 'carol@other.test', name: null, trustLevel: 'basic' });
    expect(emails(searchUsers(runtime, TENANT, 'carol'))).toEqual(['carola@c.test', 'carol@c.test']);
  });
});

describe('searchUsers keeps recent hits', () => {
  it('answers a repeated term from the same scan until a user changes', async () => {
    const runtime = await withUsers([
      ['dora@d.test', 'Dora'],
      ['dan@d.test', 'Dan'],
    ]);
    const first = searchUsers(runtime, TENANT, 'd.test');
    expect(searchUsers(runtime, TENANT, 'D.TEST')).toBe(first); // same term once lowercased: no new scan
    expect(emails(first)).toEqual(['dan@d.test', 'dora@d.test']);
    await createUser(runtime, TENANT, { email: 'dee@d.test', name: null, trustLevel: 'basic' });
    const after = searchUsers(runtime, TENANT, 'd.test');
    expect(after).not.toBe(first);
    expect(emails(after)).toEqual(['dee@d.test', 'dan@d.test', 'dora@d.test']);
  });

  it('forgets the least recently used term beyond its bound, and answers it right again', async () => {
    const runtime = await withUsers([['erin@e.test', 'Erin']]);
    const kept = searchUsers(runtime, TENANT, 'erin');
    searchUsers(runtime, TENANT, 'term0');
    expect(searchUsers(runtime, TENANT, 'erin')).toBe(kept); // touched: now the most recent
    for (let i = 1; i < CACHED_TERMS; i++) searchUsers(runtime, TENANT, `term${i}`);
    expect(searchUsers(runtime, TENANT, 'erin')).toBe(kept); // term0 went first, being older
    for (let i = 0; i < CACHED_TERMS; i++) searchUsers(runtime, TENANT, `later${i}`);
    const again = searchUsers(runtime, TENANT, 'erin');
    expect(emails(again)).toEqual(['erin@e.test']);
    expect(again).not.toBe(kept); // pushed out by CACHED_TERMS newer terms, so scanned anew
  });
});
