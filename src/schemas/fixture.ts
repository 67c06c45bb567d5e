/** Seed files (`fixtures/default.json`, `svc serve --seed FILE`, `POST /_emulator/seed`). */
import { z } from '@hono/zod-openapi';
import { secret } from './secret.js';
import { PLANS } from './words.js';
import { API_KEY_PATTERN } from './api-keys.js';
import { CreateAppBody } from './apps.js';
import { IsoTimestamp, idOf } from './common.js';
import { UpdateTenantBody } from './tenant.js';
import { Email, TrustLevel } from './users.js';

const FixtureUser = z
  .object({
    id: idOf('usr').optional(),
    email: Email.nullable(),
    name: z.string().trim().min(1).max(200).nullable().optional(),
    trustLevel: TrustLevel,
    createdAt: IsoTimestamp.optional(),
  })
  .refine((user) => user.trustLevel === 'guest' || user.email !== null, { message: 'only a guest may have no email', path: ['email'] });

const FixtureTenant = z.object({
  id: idOf('ten').optional(),
  name: z.string().trim().min(1).max(100),
  plan: z.enum(PLANS).default('pro'),
  apiKeys: z
    .array(
      z.object({
        id: idOf('key').optional(),
        name: z.string().trim().min(1).max(100),
        key: secret(z.string().regex(API_KEY_PATTERN, 'sk_test_ followed by 32 letters or digits')),
      }),
    )
    .min(1, 'a tenant needs at least one API key'),
  settings: UpdateTenantBody.shape.settings,
  apps: z.array(CreateAppBody.extend({ id: idOf('app').optional() })).default([]),
  users: z.array(FixtureUser).default([]),
});

/**
 * Names the fixture must not repeat, so a duplicate is refused with its path by parseFixture
 * (before the store is opened) rather than by the store's unique indexes later.
 */
function refuseRepeats(fixture: { tenants: Array<z.output<typeof FixtureTenant>> }, ctx: z.RefinementCtx): void {
  const seen = new Map<string, string>();
  const once = (key: string, path: Array<string | number>, what: string): void => {
    const first = seen.get(key);
    if (first === undefined) seen.set(key, path.join('.'));
    else ctx.addIssue({ code: 'custom', path, message: `${what} repeats ${first}` });
  };
  fixture.tenants.forEach((tenant, t) => {
    if (tenant.id !== undefined) once(`tenant:${tenant.id}`, ['tenants', t, 'id'], `the tenant id ${tenant.id}`);
    for (const [list, records] of [
      ['apiKeys', tenant.apiKeys],
      ['apps', tenant.apps],
      ['users', tenant.users],
    ] as const) {
      records.forEach((record, r) => {
        if (record.id !== undefined) once(`id:${record.id}`, ['tenants', t, list, r, 'id'], `the id ${record.id}`);
      });
    }
    tenant.apiKeys.forEach((key, k) => once(`key:${key.key}`, ['tenants', t, 'apiKeys', k, 'key'], 'the API key'));
    tenant.apps.forEach((app, a) => once(`app:${t}:${app.name.toLowerCase()}`, ['tenants', t, 'apps', a, 'name'], `the app name "${app.name}"`));
    tenant.users.forEach((user, u) => {
      if (user.email !== null) once(`email:${t}:${user.email.toLowerCase()}`, ['tenants', t, 'users', u, 'email'], `the email ${user.email}`);
    });
  });
}

export const Fixture = z
  .object({ tenants: z.array(FixtureTenant).min(1, 'a fixture needs at least one tenant') })
  .superRefine(refuseRepeats)
  .openapi('Fixture');

export type FixtureInput = z.input<typeof Fixture>;
export type FixtureData = z.output<typeof Fixture>;
