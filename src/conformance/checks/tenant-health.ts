/** Tenant and health (spec part 4; D1, D3, D15). */
import { envelope } from '../../schemas/common.js';
import { Health, Ready } from '../../schemas/health.js';
import { Tenant } from '../../schemas/tenant.js';
import { expect, expectJsonContentType, expectShape, expectStatus } from '../expect.js';
import { expectErrorCode, expectSuccess } from '../shapes.js';
import type { Check } from '../types.js';
import { removal } from './support.js';

export const tenantChecks: Check[] = [
  {
    id: 'tenant.get',
    tags: ['tenant'],
    description: 'GET /tenant answers 200 with the success envelope',
    spec: 'part 2, part 4',
    profile: 'spec',
    creates: false,
    run: async (ctx) => void expectSuccess(await ctx.client.request('GET', '/tenant'), 200, 'part 4: get current tenant'),
  },
  {
    id: 'tenant.shape',
    tags: ['tenant'],
    description: 'GET /tenant carries id, name, plan and settings, and never the Telegram bot token',
    spec: 'D3, D15',
    profile: 'emulator',
    creates: false,
    run: async (ctx) => {
      const result = await ctx.client.tenant.get();
      expectShape(result, envelope(Tenant), 'D3/D15: the tenant fields');
      expect(!/botToken"/.test(result.text), 'D3: the Telegram bot token is write-only', 'the answer holds botToken', result);
    },
  },
  {
    id: 'tenant.update',
    tags: ['tenant'],
    description: 'PATCH /tenant changes the name, answers the tenant and GET reads the new name; the old name is put back at the end',
    spec: 'part 4, D15',
    profile: 'emulator',
    creates: true,
    readsBack: ['updateTenant'],
    run: async (ctx) => {
      const before = await ctx.client.tenant.get();
      const { data } = expectShape(before, envelope(Tenant), 'D15: the tenant fields');
      ctx.defer({ description: `tenant name "${data.name}"`, stage: 'tenant', run: () => removal(ctx.client.tenant.update({ name: data.name })) });
      const name = ctx.name('tenant');
      const result = await ctx.client.tenant.update({ name });
      expectStatus(result, 200, 'part 4: update tenant answers 200');
      const after = expectShape(result, envelope(Tenant), 'D15: PATCH answers the tenant');
      expect(
        after.data.name === name && after.data.settings.apiVersion === data.settings.apiVersion,
        'D15: PATCH changes only what was sent',
        `name ${after.data.name}`,
        result,
      );
      // The change is kept, not only answered: the next read reports it.
      const read = await ctx.client.tenant.get();
      const { data: now } = expectShape(read, envelope(Tenant), 'D15: the tenant fields');
      expect(now.name === name, 'part 4: GET /tenant reads the name PATCH set', `name ${now.name}`, read);
    },
  },
  {
    id: 'tenant.update-invalid',
    tags: ['tenant'],
    description: 'PATCH /tenant with an apiVersion that is not a date is 400 validation_error',
    spec: 'D3, D6',
    profile: 'emulator',
    creates: false,
    run: async (ctx) => {
      const result = await ctx.client.request('PATCH', '/tenant', { body: { settings: { apiVersion: 'yesterday' } } });
      expectErrorCode(result, 400, 'validation_error', 'D3: settings.apiVersion is a date YYYY-MM-DD');
    },
  },
];

export const healthChecks: Check[] = [
  ...(['healthz', 'readyz'] as const).map((name): Check => ({
    id: `health.${name}`,
    tags: ['health'],
    description: `GET /${name} answers 200 with JSON`,
    spec: 'part 4 (Health)',
    profile: 'spec',
    creates: false,
    run: async (ctx) => {
      const result = await ctx.client.request('GET', `/${name}`);
      expectStatus(result, 200, `part 4: /${name} answers a live service`);
      expectJsonContentType(result, 'part 4: answers are JSON');
    },
  })),
  {
    id: 'health.shape',
    tags: ['health'],
    description: '/healthz and /readyz answer { data: { status } } without a key, under /v1 and at the root',
    spec: 'D1, D3',
    profile: 'emulator',
    creates: false,
    run: async (ctx) => {
      const origin = new URL(ctx.client.options.baseUrl).origin;
      for (const base of [ctx.client.options.baseUrl, origin]) {
        expectShape(
          await ctx.client.request('GET', `${base}/healthz`, { apiKey: null }),
          envelope(Health),
          `D1: ${base}/healthz answers { data: { status: "ok" } }`,
        );
        expectShape(
          await ctx.client.request('GET', `${base}/readyz`, { apiKey: null }),
          envelope(Ready),
          `D1: ${base}/readyz answers { data: { status: "ready" } }`,
        );
      }
    },
  },
];
