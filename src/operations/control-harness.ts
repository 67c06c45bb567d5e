/**
 * The operations of routes/control-harness.ts, their paths below /_emulator: what a test run
 * asks of svc. A tenant per test worker (`/tenants`), the request journal (`/requests`), every
 * delivery (`/deliveries`, what a test waits on), sending events again (`/redeliver`) and the
 * store as a fixture (`/export`).
 */
import { createRoute } from '@hono/zod-openapi';
import { IdParam, envelope, errorResponses, jsonBody, jsonResponse, list } from '../schemas/common.js';
import { Cleared, ControlDelivery } from '../schemas/control.js';
import {
  CreateTenantBody,
  DeliveriesQuery,
  Exported,
  JournalEntry,
  RedeliverBody,
  Redelivered,
  RequestsQuery,
  ResetTenantBody,
  TenantQuery,
  TenantRemoved,
  TenantReset,
  TenantSummary,
  TestTenant,
} from '../schemas/harness.js';
import { CONTROL_SECURITY, GUARDED } from './control.js';
import type { ControlTag } from './tags.js';

const tagged = (tag: ControlTag) => ({ tags: [tag], security: CONTROL_SECURITY });

export const harnessOperations = {
  listTestTenants: createRoute({
    method: 'get',
    path: '/tenants',
    operationId: 'listTestTenants',
    ...tagged('Test tenants'),
    summary: 'List the tenants',
    description: 'Every tenant of the store, with how many users, apps and webhooks it holds.',
    responses: { 200: jsonResponse(list(TenantSummary), 'The tenants'), ...GUARDED },
  }),
  createTestTenant: createRoute({
    method: 'post',
    path: '/tenants',
    operationId: 'createTestTenant',
    ...tagged('Test tenants'),
    summary: 'Make a test tenant',
    description:
      "A throwaway tenant with a fresh API key, copied from a tenant of the emulator's fixture (`template`, by id or name; the first when left out; `null` for an empty one).",
    request: jsonBody(CreateTenantBody),
    responses: { 201: jsonResponse(envelope(TestTenant), 'The tenant and its key (shown once)'), ...errorResponses(404, 409), ...GUARDED },
  }),
  resetTestTenant: createRoute({
    method: 'post',
    path: '/tenants/{id}/reset',
    operationId: 'resetTestTenant',
    ...tagged('Test tenants'),
    summary: 'Reset a test tenant',
    description: 'Removes what the tenant holds and seeds it again from its fixture tenant, without touching any other tenant.',
    request: { params: IdParam, ...jsonBody(ResetTenantBody) },
    responses: { 200: jsonResponse(envelope(TenantReset), 'The tenant, and how many records were removed'), ...errorResponses(404, 409), ...GUARDED },
  }),
  removeTestTenant: createRoute({
    method: 'delete',
    path: '/tenants/{id}',
    operationId: 'removeTestTenant',
    ...tagged('Test tenants'),
    summary: 'Remove a tenant',
    description: 'Removes the tenant with everything it holds.',
    request: { params: IdParam },
    responses: { 200: jsonResponse(envelope(TenantRemoved), 'The tenant is gone'), ...errorResponses(404), ...GUARDED },
  }),
  listJournal: createRoute({
    method: 'get',
    path: '/requests',
    operationId: 'listJournal',
    ...tagged('Request journal'),
    summary: 'List the request journal',
    description:
      'The /v1 requests this process answered, oldest first (with `limit`, the newest `limit`), by tenant, method, path (a prefix ending in `*`), status (`201`, `4xx`), request id, or after a sequence number.',
    request: { query: RequestsQuery },
    responses: { 200: jsonResponse(list(JournalEntry), 'The entries, oldest first'), ...GUARDED },
  }),
  clearJournal: createRoute({
    method: 'delete',
    path: '/requests',
    operationId: 'clearJournal',
    ...tagged('Request journal'),
    summary: 'Clear the request journal',
    description: "Forgets the journal's entries, of one tenant or all.",
    request: { query: TenantQuery },
    responses: { 200: jsonResponse(envelope(Cleared), 'How many entries were forgotten'), ...GUARDED },
  }),
  listAllDeliveries: createRoute({
    method: 'get',
    path: '/deliveries',
    operationId: 'listAllDeliveries',
    ...tagged('Events and deliveries'),
    summary: 'List every delivery',
    description: 'Deliveries of every tenant (or one), of one event type, event or status.',
    request: { query: DeliveriesQuery },
    responses: { 200: jsonResponse(list(ControlDelivery), 'The deliveries'), ...GUARDED },
  }),
  redeliverEvents: createRoute({
    method: 'post',
    path: '/redeliver',
    operationId: 'redeliverEvents',
    ...tagged('Events and deliveries'),
    summary: 'Send events again',
    description:
      'Sends one event (by id), or every event since a time (ISO, or a duration back from now such as 10m), again to its webhooks with the same event id. A delivery still pending or failed, or whose webhook was deleted, is skipped, and said so.',
    request: jsonBody(RedeliverBody),
    responses: { 200: jsonResponse(envelope(Redelivered), 'What was sent again and what was skipped'), ...errorResponses(404), ...GUARDED },
  }),
  exportFixture: createRoute({
    method: 'get',
    path: '/export',
    operationId: 'exportFixture',
    ...tagged('Store'),
    summary: 'Export the store as a fixture',
    description:
      'The store, or one tenant, as a fixture document that `svc serve --seed` and POST /_emulator/seed take back; what the format has no place for is counted as left out.',
    request: { query: TenantQuery },
    responses: { 200: jsonResponse(envelope(Exported), 'The fixture and what it could not hold'), ...errorResponses(404, 409), ...GUARDED },
  }),
};
