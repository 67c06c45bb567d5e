/** Apps: per-tenant records whose name is unique in the tenant, case-insensitively. */
import { conflict, notFound } from '../errors.js';
import { newId } from '../ids.js';
import type { Runtime } from '../runtime.js';
import type { AppView, CreateAppInput, UpdateAppInput } from '../schemas/apps.js';
import type { AppRecord } from '../store/records.js';
import { paginateMatching, type Page, type PageRequest } from './pagination.js';

export function appView(app: AppRecord): AppView {
  return {
    id: app.id,
    name: app.name,
    description: app.description,
    allowedOrigins: app.allowedOrigins,
    createdAt: app.createdAt,
    updatedAt: app.updatedAt,
  };
}

function assertNameFree(rt: Runtime, tenantId: string, name: string, exceptId?: string): void {
  const holder = rt.store.findByKey('apps', `${tenantId}:${name.toLowerCase()}`);
  if (holder && holder.id !== exceptId) {
    throw conflict(`an app named "${name}" already exists`, [{ path: 'name', message: 'already taken in this tenant' }]);
  }
}

export function listApps(rt: Runtime, tenantId: string, query: PageRequest & { search?: string | undefined }): Page<AppView> {
  const needle = query.search?.toLowerCase();
  const matches = needle ? (app: AppRecord) => app.name.toLowerCase().includes(needle) : null;
  return paginateMatching(rt.store.newestFirst('apps', tenantId), matches, query, appView);
}

export function getApp(rt: Runtime, tenantId: string, id: string): AppRecord {
  const app = rt.store.getOwned('apps', tenantId, id);
  if (!app) throw notFound('app', id);
  return app;
}

export function appRecord(tenantId: string, input: CreateAppInput, now: string): AppRecord {
  return {
    id: newId('app'),
    tenantId,
    name: input.name,
    description: input.description ?? null,
    allowedOrigins: input.allowedOrigins ?? [],
    createdAt: now,
    updatedAt: now,
  };
}

/** Adds an app to a tenant (a name unique within it). Named apart from `createApp` in app.ts, which makes the HTTP app. */
export async function createTenantApp(rt: Runtime, tenantId: string, input: CreateAppInput): Promise<AppRecord> {
  return rt.store.write(() => {
    assertNameFree(rt, tenantId, input.name);
    return rt.store.insert('apps', appRecord(tenantId, input, rt.clock.iso()));
  });
}

export async function updateApp(rt: Runtime, tenantId: string, id: string, input: UpdateAppInput): Promise<AppRecord> {
  const app = getApp(rt, tenantId, id);
  return rt.store.write(() => {
    if (input.name !== undefined) assertNameFree(rt, tenantId, input.name, id);
    return rt.store.update('apps', app.id, {
      name: input.name ?? app.name,
      description: input.description === undefined ? app.description : input.description,
      allowedOrigins: input.allowedOrigins ?? app.allowedOrigins,
      updatedAt: rt.clock.iso(),
    });
  });
}

export async function deleteApp(rt: Runtime, tenantId: string, id: string): Promise<void> {
  const app = getApp(rt, tenantId, id);
  await rt.store.write(() => rt.store.remove('apps', app.id));
}
