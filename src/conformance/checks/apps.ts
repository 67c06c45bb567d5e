/** Apps (spec part 4; D7, D15): create, read, update, delete, list, search, pagination. */
import { App, Deleted } from '../../schemas/apps.js';
import { envelope, paginated } from '../../schemas/common.js';
import { expect, expectShape, expectStatus } from '../expect.js';
import { SpecPage, expectError, expectErrorCode, expectSuccess } from '../shapes.js';
import type { Check } from '../types.js';
import { createRunApp, missingId, removal } from './support.js';
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
    run: async (ctx) => {
      const app = await createRunApp(ctx, 'app');
      const read = await ctx.client.request('GET', `/apps/${app.id}`);
      const data = expectSuccess(read, 200, 'part 4: get app');
      expect(data['id'] === app.id, 'part 4: GET /apps/:id answers that app', `data.id is ${JSON.stringify(data['id'])}`, read);
    },
  },
  {
    id: 'apps.create-201',
    tags: ['apps'],
    description: 'POST /apps answers 201 with the app: id, name, description, allowedOrigins, createdAt, updatedAt',
    spec: 'D15, part 7 (201)',
    profile: 'emulator',
    creates: true,
    run: async (ctx) => {
      const app = await createRunApp(ctx, 'app201', { description: 'conformance', allowedOrigins: ['http://localhost:3000'] });
      expectStatus(app.result, 201, 'part 7/D15: create → 201 Created');
      const { data } = expectShape(app.result, envelope(App), 'D15: the app fields');
      expect(data.name === app.name && data.description === 'conformance', 'D15: the app holds what was sent', 'name or description differ', app.result);
      expect(data.allowedOrigins[0] === 'http://localhost:3000', 'D15: allowedOrigins kept', JSON.stringify(data.allowedOrigins), app.result);
      const read = await ctx.client.apps.get(app.id);
      expectShape(read, envelope(App), 'D15: GET /apps/:id answers the app fields');
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
    description: 'PATCH /apps/:id changes the fields sent and keeps the others',
    spec: 'part 4, D15',
    profile: 'emulator',
    creates: true,
    run: async (ctx) => {
      const app = await createRunApp(ctx, 'upd', { description: 'before' });
      const name = ctx.name('renamed');
      const result = await ctx.client.apps.update(app.id, { name });
      const { data } = expectShape(result, envelope(App), 'D15: PATCH answers the app');
      expectStatus(result, 200, 'part 4: update app answers 200');
      expect(
        data.name === name && data.description === 'before',
        'D15: PATCH changes only the fields sent',
        `name ${data.name}, description ${data.description}`,
        result,
      );
    },
  },
  {
    id: 'apps.delete',
    tags: ['apps'],
    description: 'DELETE /apps/:id removes the app: GET then answers 404',
    spec: 'part 4, part 7 (404)',
    profile: 'spec',
    creates: true,
    run: async (ctx) => {
      const app = await createRunApp(ctx, 'del');
      expectStatus(await ctx.client.request('DELETE', `/apps/${app.id}`), [200, 204], 'part 4: delete app succeeds');
      expectError(await ctx.client.request('GET', `/apps/${app.id}`), 404, 'part 4/7: a deleted app is not found (404)');
    },
  },
  {
    id: 'apps.delete-answer',
    tags: ['apps'],
    description: 'DELETE /apps/:id answers 200 { data: { id, deleted: true } }',
    spec: 'D15',
    profile: 'emulator',
    creates: true,
    run: async (ctx) => {
      const app = await createRunApp(ctx, 'del2');
      const result = await ctx.client.apps.delete(app.id);
      expectStatus(result, 200, 'D15: delete answers 200');
      const { data } = expectShape(result, envelope(Deleted), 'D15: delete answers {id, deleted: true}');
      expect(data.id === app.id, 'D15: the deleted id', data.id, result);
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
