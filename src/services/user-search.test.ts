import { afterEach, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime } from '../runtime.js';
import { searchUsers } from './user-search.js';
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

const emails = (found: Array<{ email: string | null }>) => found.map((user) => user.email);

describe('searchUsers', () => {
  it.each<[string, string[]]>([
    ['ALICE', ['malice@x.test', 'alice@b.test']],
    ['smith', ['bob@b.test']],
    ['@b.test', ['bob@b.test', 'alice@b.test']],
    ['test alice', []], // never across the email/name boundary
    ['', ['malice@x.test', 'bob@b.test', 'alice@b.test']],
    ['nobody', []],
  ])('"%s" finds %j, newest first', async (term, expected) => {
    const runtime = await withUsers([['alice@b.test', 'Alice'], ['bob@b.test', 'Bob Smith'], ['malice@x.test', null]]);
    expect(emails(searchUsers(runtime, TENANT, term))).toEqual(expected);
  });

  it('sees users added after an earlier search, and only the tenant’s own', async () => {
    const runtime = await withUsers([['carol@c.test', 'Carol']]);
    expect(emails(searchUsers(runtime, TENANT, 'carol'))).toEqual(['carol@c.test']);
    await createUser(runtime, TENANT, { email: 'carola@c.test', name: null, trustLevel: 'basic' });
    await createUser(runtime, 'ten_other0000000000001', { email: 'carol@other.test', name: null, trustLevel: 'basic' });
    expect(emails(searchUsers(runtime, TENANT, 'carol'))).toEqual(['carola@c.test', 'carol@c.test']);
  });
});
