/** Apps (spec part 4; D7, D15): create, read, update, delete, list, search, pagination. */
import { App, Deleted } from '../../schemas/apps.js';
import { envelope, paginated } from '../../schemas/common.js';
import { expect, expectShape, expectStatus } from '../expect.js';
import { SpecPage, expectError, expectErrorCode, expectSuccess } from '../shapes.js';
import type { Check } from '../types.js';
import { createRunApp, expectReadBack, missingId, removal, searchListing } from './support.js';
import { pageBoundChecks, pagingChecks } from './paging.js';

export const appChecks: Check[] = [
  {
    id: 'apps.list',
    tags: ['apps'],
    description: 'GET /apps answers 200 with the paginated envelope',
    spec: 'part 2 (paginated envelope), part 4',
    profile: 'spec',
    creates: false,
    run: async (ctx) => {
      const result = await ctx.client.request('GET', '/apps');
      expectStatus(result, 200, 'part 4: list apps');
      const page = expectShape(result, SpecPage, 'part 2: list apps uses the paginated envelope');
      expect(page.data.length <= page.pageSize, 'part 2: pageSize is the items per page', `${page.data.length} items on a page of ${page.pageSize}`, result);
      expect(page.total >= page.data.length, 'part 2: total counts all items', `total ${page.total} < ${page.data.length} items on this page`, result);
    },
  },
  {
    id: 'apps.create',
    tags: ['apps'],
    description: 'POST /apps creates an app that GET /apps/:id then answers, in the success envelope',
    spec: 'part 2 (success envelope), part 4',
    profile: 'spec',
    creates: true,
    readsBack: ['createApp'],
    run: async (ctx) => {
      const app = await createRunApp(ctx, 'app');
      const read = await ctx.client.request('GET', `/apps/${app.id}`);
      const data = expectSuccess(read, 200, 'part 4: get app');
      expect(data['id'] === app.id, 'part 4: GET /apps/:id answers that app', `data.id is ${JSON.stringify(data['id'])}`, read);
      expectReadBack(data, { name: app.name }, 'part 4: GET /apps/:id reads back the name POST sent', read);
    },
  },
  {
    id: 'apps.create-201',
    tags: ['apps'],
    description:
      'POST /apps answers 201 with the app: id, name, description, allowedOrigins, createdAt, updatedAt; GET and the listing read back each field sent',
    spec: 'D15, part 7 (201)',
    profile: 'emulator',
    creates: true,
    readsBack: ['createApp'],
    run: async (ctx) => {
      const sent = { description: 'conformance', allowedOrigins: ['http://localhost:3000'] };
      const app = await createRunApp(ctx, 'app201', sent);
      expectStatus(app.result, 201, 'part 7/D15: create → 201 Created');
      const { data } = expectShape(app.result, envelope(App), 'D15: the app fields');
      expect(data.name === app.name && data.description === 'conformance', 'D15: the app holds what was sent', 'name or description differ', app.result);
      expect(data.allowedOrigins[0] === 'http://localhost:3000', 'D15: allowedOrigins kept', JSON.stringify(data.allowedOrigins), app.result);
      // Kept, not only answered: GET and the listing read back every field sent, and the times the creation answered.
      const stored = { name: app.name, ...sent, createdAt: data.createdAt, updatedAt: data.updatedAt };
      const read = await ctx.client.apps.get(app.id);
      const got = expectShape(read, envelope(App), 'D15: GET /apps/:id answers the app fields').data;
      expectReadBack(got, stored, 'D15: GET /apps/:id reads back what POST /apps sent', read);
      const listed = await searchListing(ctx, '/apps', app.name, app.id);
      expectReadBack(listed.item, stored, 'D7/D15: the listing holds the new app with what POST /apps sent', listed.result);
      expect(listed.page.total === 1, 'D7: a listing searched by the new name counts the one app made', `total ${listed.page.total}`, listed.result);
    },
  },
  {
    id: 'apps.list-shape',
    tags: ['apps'],
    description: 'GET /apps items carry the app fields; page defaults to 1 and pageSize to 20',
    spec: 'D7, D15',
    profile: 'emulator',
    creates: false,
    run: async (ctx) => {
      const result = await ctx.client.apps.list();
      const page = expectShape(result, paginated(App), 'D15: list items are apps');
      expect(page.page === 1 && page.pageSize === 20, 'D7: page defaults to 1, page_size to 20', `page ${page.page}, pageSize ${page.pageSize}`, result);
    },
  },
  {
    id: 'apps.unknown-id',
    tags: ['apps'],
    description: 'GET, PATCH and DELETE /apps/:id of an id that does not exist are 404 with the error envelope',
    spec: 'part 7 (404)',
    profile: 'spec',
    creates: false,
    run: async (ctx) => {
      const id = missingId(ctx, 'app');
      expectError(await ctx.client.request('GET', `/apps/${id}`), 404, 'part 7: an unknown app is not found (404)');
      expectError(await ctx.client.request('PATCH', `/apps/${id}`, { body: { name: ctx.name('nope') } }), 404, 'part 7: updating an unknown app is 404');
      expectError(await ctx.client.request('DELETE', `/apps/${id}`), 404, 'part 7: deleting an unknown app is 404');
    },
  },
  {
    id: 'apps.update',
    tags: ['apps'],
    description: 'PATCH /apps/:id changes the fields sent and keeps the others, as GET and the listing then read them',
    spec: 'part 4, D15',
    profile: 'emulator',
    creates: true,
    readsBack: ['updateApp'],
    run: async (ctx) => {
      const app = await createRunApp(ctx, 'upd', { description: 'before', allowedOrigins: ['http://localhost:3000'] });
      const name = ctx.name('renamed');
      const result = await ctx.client.apps.update(app.id, { name, allowedOrigins: ['https://conformance.example'] });
      const { data } = expectShape(result, envelope(App), 'D15: PATCH answers the app');
      expectStatus(result, 200, 'part 4: update app answers 200');
      expect(
        data.name === name && data.description === 'before',
        'D15: PATCH changes only the fields sent',
        `name ${data.name}, description ${data.description}`,
        result,
      );
      // Applied, not only answered: GET and the listing read the new fields and the one kept.
      const stored = { name, description: 'before', allowedOrigins: ['https://conformance.example'] };
      const read = await ctx.client.apps.get(app.id);
      const got = expectShape(read, envelope(App), 'D15: GET /apps/:id answers the app fields').data;
      expectReadBack(got, stored, 'D15: GET /apps/:id reads what PATCH set and what it kept', read);
      expect(got.updatedAt >= got.createdAt, 'D15: updatedAt is not before createdAt', `${got.updatedAt} < ${got.createdAt}`, read);
      const [renamed, old] = [await searchListing(ctx, '/apps', name, app.id), await searchListing(ctx, '/apps', app.name, app.id)];
      expectReadBack(renamed.item, stored, 'D7/D15: the listing holds the app as PATCH left it', renamed.result);
      expect(old.item === undefined, 'D7: the listing searched by the old name no longer finds the app', `${app.id} is found by ${app.name}`, old.result);
    },
  },
  {
    id: 'apps.delete',
    tags: ['apps'],
    description: 'DELETE /apps/:id removes the app: GET then answers 404 and the listing leaves it out',
    spec: 'part 4, part 7 (404)',
    profile: 'spec',
    creates: true,
    readsBack: ['deleteApp'],
    run: async (ctx) => {
      const app = await createRunApp(ctx, 'del');
      expectStatus(await ctx.client.request('DELETE', `/apps/${app.id}`), [200, 204], 'part 4: delete app succeeds');
      expectError(await ctx.client.request('GET', `/apps/${app.id}`), 404, 'part 4/7: a deleted app is not found (404)');
      // A deployment that ignores search answers its first page, newest first: the app is on neither.
      const listed = await searchListing(ctx, '/apps', app.name, app.id);
      expect(listed.item === undefined, 'part 4: a deleted app is not listed', `${app.id} is still listed`, listed.result);
    },
  },
  {
    id: 'apps.delete-answer',
    tags: ['apps'],
    description: 'DELETE /apps/:id answers 200 { data: { id, deleted: true } }; the count by its name goes 1, 0, and 1 when it is made again',
    spec: 'D15',
    profile: 'emulator',
    creates: true,
    readsBack: ['deleteApp'],
    run: async (ctx) => {
      const app = await createRunApp(ctx, 'del2');
      const count = async (when: string, want: number) => {
        const listed = await searchListing(ctx, '/apps', app.name, app.id);
        expect(
          listed.page.total === want,
          `D7: the count of apps by the name moves by exactly what the run did (${when})`,
          `total ${listed.page.total}, not ${want}`,
          listed.result,
        );
      };
      await count('after the create', 1);
      const result = await ctx.client.apps.delete(app.id);
      expectStatus(result, 200, 'D15: delete answers 200');
      const { data } = expectShape(result, envelope(Deleted), 'D15: delete answers {id, deleted: true}');
      expect(data.id === app.id, 'D15: the deleted id', data.id, result);
      await count('after the delete', 0);
      // The name is free again (D6 holds it unique among the tenant's apps, not among the deleted ones).
      const again = await ctx.client.apps.create({ name: app.name });
      const id = again.ok ? again.body.data.id : undefined;
      if (id !== undefined) ctx.defer({ description: `app ${id} (${app.name})`, run: () => removal(ctx.client.apps.delete(id)) });
      expectStatus(again, 201, 'D6: once deleted, an app of the same name can be created again');
      await count('after creating it again', 1);
    },
  },
  {
    id: 'apps.duplicate-name',
    tags: ['apps'],
    description: 'a second app with the same name (any case) is 409 conflict',
    spec: 'part 7 (409), D6',
    profile: 'emulator',
    creates: true,
    run: async (ctx) => {
      const app = await createRunApp(ctx, 'dup');
      const again = await ctx.client.apps.create({ name: app.name.toUpperCase() });
      if (again.ok) {
        const id = (again.body as { data?: { id?: string } }).data?.id;
        if (id) ctx.defer({ description: `app ${id}`, run: () => removal(ctx.client.apps.delete(id)) });
      }
      expectErrorCode(again, 409, 'conflict', 'part 7/D6: a duplicate app name is 409 conflict');
    },
  },
  {
    id: 'apps.bad-body',
    tags: ['apps'],
    description: 'POST /apps without a name is 400 validation_error naming the field',
    spec: 'part 7 (400), D6, D15',
    profile: 'emulator',
    creates: false,
    run: async (ctx) => {
      const result = await ctx.client.request('POST', '/apps', { body: { description: 'no name' } });
      const body = expectError(result, 400, 'part 7: a bad body is 400');
      expect(body.code === 'validation_error', 'D6: validation_error', body.code, result);
      expect(JSON.stringify(body.details).includes('name'), 'D6: details name the bad field', JSON.stringify(body.details), result);
    },
  },
  ...pagingChecks('apps', async (ctx, label) => (await createRunApp(ctx, label)).name),
  ...pageBoundChecks('apps', '/apps'),
];
