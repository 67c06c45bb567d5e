/** Users (spec part 4; D7, D13, D15): create, read, list, trust_level and search filters. */
import { envelope, paginated } from '../../schemas/common.js';
import { User } from '../../schemas/users.js';
import { expect, expectShape, expectStatus } from '../expect.js';
import { SpecPage, expectError, expectErrorCode, expectSuccess } from '../shapes.js';
import type { Check } from '../types.js';
import { pageBoundChecks, pagingChecks } from './paging.js';
import { createUser, expectReadBack, missingId, searchListing } from './support.js';

export const userChecks: Check[] = [
  {
    id: 'users.list',
    tags: ['users'],
    description: 'GET /users answers 200 with the paginated envelope',
    spec: 'part 2 (paginated envelope), part 4',
    profile: 'spec',
    creates: false,
    run: async (ctx) => {
      const result = await ctx.client.request('GET', '/users');
      expectStatus(result, 200, 'part 4: list users');
      expectShape(result, SpecPage, 'part 2: list users uses the paginated envelope');
    },
  },
  {
    id: 'users.create',
    tags: ['users'],
    description: 'POST /users creates a user that GET /users/:id then answers, in the success envelope',
    spec: 'part 2, part 4',
    profile: 'spec',
    creates: true,
    readsBack: ['createUser'],
    run: async (ctx) => {
      const user = await createUser(ctx, 'user');
      const read = await ctx.client.request('GET', `/users/${user.id}`);
      const data = expectSuccess(read, 200, 'part 4: get user');
      expect(data['id'] === user.id, 'part 4: GET /users/:id answers that user', `data.id is ${JSON.stringify(data['id'])}`, read);
      expectReadBack(data, { email: user.email }, 'part 4: GET /users/:id reads back the e-mail POST sent', read);
      const listed = await searchListing(ctx, '/users', user.email, user.id);
      expectReadBack(listed.item, { email: user.email }, 'part 4: GET /users?search= lists the new user with its e-mail', listed.result);
    },
  },
  {
    id: 'users.create-201',
    tags: ['users'],
    description:
      'POST /users answers 201 with id, email, name, trustLevel (default basic), partyId <hint>::1220<hex>, createdAt; GET and the listing read them back',
    spec: 'D13, D15, part 7 (201)',
    profile: 'emulator',
    creates: true,
    readsBack: ['createUser'],
    run: async (ctx) => {
      const user = await createUser(ctx, 'user201');
      expectStatus(user.result, 201, 'part 7/D15: create → 201 Created');
      const { data } = expectShape(user.result, envelope(User), 'D15/D13: the user fields');
      expect(
        data.email === user.email && data.trustLevel === 'basic',
        'D15: email kept, trustLevel defaults to basic',
        `${data.email} ${data.trustLevel}`,
        user.result,
      );
      // Kept, not only answered: GET and the listing read back what POST sent and what the creation answered.
      const stored = { email: user.email, name: `Conformance ${ctx.runId}`, trustLevel: 'basic', partyId: data.partyId, createdAt: data.createdAt };
      const read = await ctx.client.users.get(user.id);
      const got = expectShape(read, envelope(User), 'D15: GET /users/:id answers the user fields').data;
      expectReadBack(got, stored, 'D15: GET /users/:id reads back what POST /users sent', read);
      const listed = await searchListing(ctx, '/users', user.email, user.id);
      expectReadBack(listed.item, stored, 'D7/D15: the listing holds the new user with what POST /users sent', listed.result);
      expect(listed.page.total === 1, 'D7: a listing searched by the new e-mail counts the one user made', `total ${listed.page.total}`, listed.result);
    },
  },
  {
    id: 'users.list-shape',
    tags: ['users'],
    description: 'GET /users items carry the user fields',
    spec: 'D15',
    profile: 'emulator',
    creates: false,
    run: async (ctx) => void expectShape(await ctx.client.users.list({ page_size: 50 }), paginated(User), 'D15: list items are users'),
  },
  {
    id: 'users.unknown-id',
    tags: ['users'],
    description: 'GET /users/:id of an id that does not exist is 404 with the error envelope',
    spec: 'part 7 (404)',
    profile: 'spec',
    creates: false,
    run: async (ctx) => void expectError(await ctx.client.request('GET', `/users/${missingId(ctx, 'usr')}`), 404, 'part 7: an unknown user is not found (404)'),
  },
  {
    id: 'users.duplicate-email',
    tags: ['users'],
    description: 'a second user with the same e-mail (any case) is 409 conflict',
    spec: 'part 7 (409), D6',
    profile: 'emulator',
    creates: true,
    run: async (ctx) => {
      const user = await createUser(ctx, 'dup');
      const again = await ctx.client.users.create({ email: user.email.toUpperCase() });
      expectErrorCode(again, 409, 'conflict', 'part 7/D6: a duplicate e-mail is 409 conflict');
    },
  },
  {
    id: 'users.bad-body',
    tags: ['users'],
    description: 'POST /users with an e-mail that is not one, or a bad trustLevel, is 400 validation_error naming the field',
    spec: 'part 7 (400), D6, D15',
    profile: 'emulator',
    creates: false,
    run: async (ctx) => {
      for (const [body, field] of [
        [{ email: 'not-an-email' }, 'email'],
        [{ email: ctx.email('bad'), trustLevel: 'root' }, 'trustLevel'],
      ] as const) {
        const result = await ctx.client.request('POST', '/users', { body });
        expectErrorCode(result, 400, 'validation_error', 'part 7/D6: a bad body is 400 validation_error');
        const details = (result.body as { details: Array<{ path?: string }> }).details;
        expect(
          details.some((d) => d.path === field),
          'D6: details name the bad field',
          JSON.stringify(details),
          result,
        );
      }
    },
  },
  {
    id: 'users.trust-level',
    tags: ['users', 'search'],
    description: 'GET /users?trust_level= answers only users of that level, and finds a new one',
    spec: 'D7',
    profile: 'emulator',
    creates: true,
    run: async (ctx) => {
      const user = await createUser(ctx, 'trusted', { trustLevel: 'trusted' });
      const all = await ctx.client.users.list({ trust_level: 'verified', page_size: 100 });
      const page = expectShape(all, paginated(User), 'D7: a filtered list is a page of users');
      const wrong = page.data.find((u) => u.trustLevel !== 'verified');
      expect(wrong === undefined, 'D7: trust_level filters', `user ${wrong?.id} is ${wrong?.trustLevel}`, all);
      const found = await ctx.client.users.list({ trust_level: 'trusted', search: user.email });
      expect(
        found.ok && found.body.total === 1 && found.body.data[0]?.id === user.id,
        'D7: trust_level and search combine',
        'the new trusted user is not found',
        found,
      );
      const other = await ctx.client.users.list({ trust_level: 'basic', search: user.email });
      expect(other.ok && other.body.total === 0, 'D7: trust_level filters', 'a trusted user is listed under basic', other);
    },
  },
  {
    id: 'users.trust-level-invalid',
    tags: ['users', 'search'],
    description: 'GET /users?trust_level=root is 400 validation_error',
    spec: 'D7',
    profile: 'emulator',
    creates: false,
    run: async (ctx) =>
      expectErrorCode(
        await ctx.client.request('GET', '/users', { query: { trust_level: 'root' } }),
        400,
        'validation_error',
        'D7: an unknown trust level is 400',
      ),
  },
  ...pagingChecks('users', async (ctx, label) => (await createUser(ctx, label)).email),
  ...pageBoundChecks('users', '/users'),
];
