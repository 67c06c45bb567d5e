/**
 * The operations of routes/control.ts, one createRoute() config each, their paths below
 * /_emulator: the emulator's health, its clock, the event log and the DLQ, reset, seed and
 * trigger, injected faults, and the control plane's own OpenAPI document (D10, D11). The one
 * declaration its routes, its OpenAPI document and the typed client's `emulator` share.
 */
import { createRoute } from '@hono/zod-openapi';
import { IdParam, envelope, errorResponses, jsonBody, jsonResponse, list } from '../schemas/common.js';
import {
  AdvanceClockBody,
  AdvanceResult,
  Cleared,
  ClockState,
  ControlDelivery,
  EmulatorHealth,
  EventsQuery,
  Fault,
  FaultBody,
  RecordedEvent,
  Seeded,
  SetClockBody,
  TriggerBody,
  Triggered,
} from '../schemas/control.js';
import { Fixture } from '../schemas/fixture.js';
import { OpenApiDocument } from '../schemas/openapi.js';
import type { ControlTag } from './tags.js';

/** Where the control plane is mounted (D11): the paths below are relative to it. */
export const CONTROL_BASE_PATH = '/_emulator';

/**
 * Who may call: a loopback caller as it is, anyone else with `--admin-token` as a bearer token
 * (the empty requirement is "no credential", as OpenAPI spells it).
 */
export const CONTROL_SECURITY = [{}, { AdminToken: [] }];

/** What the guard answers a caller it does not let in; every control operation can meet it. */
export const GUARDED = errorResponses([403, 'permission_denied: not a loopback caller, and no (or a wrong) admin token']);

const tagged = (tag: ControlTag) => ({ tags: [tag], security: CONTROL_SECURITY });

export const controlOperations = {
  getEmulatorHealth: createRoute({
    method: 'get',
    path: '/health',
    operationId: 'getEmulatorHealth',
    ...tagged('Emulator'),
    summary: "The emulator's state",
    description: 'Which store the emulator runs on (and its data dir), the emulator clock, and how many delivery attempts wait on the clock.',
    responses: { 200: jsonResponse(envelope(EmulatorHealth), 'The emulator answers'), ...GUARDED },
  }),
  getControlOpenApiDocument: createRoute({
    method: 'get',
    path: '/openapi.json',
    operationId: 'getControlOpenApiDocument',
    ...tagged('Emulator'),
    summary: 'Get this OpenAPI document',
    description: "The OpenAPI 3.1 document of the control plane, made from the same declarations its routes are served from; /v1's is at /v1/openapi.json.",
    responses: { 200: jsonResponse(OpenApiDocument, 'The OpenAPI 3.1 document of the control plane'), ...GUARDED },
  }),
  getClock: createRoute({
    method: 'get',
    path: '/clock',
    operationId: 'getClock',
    ...tagged('Clock'),
    summary: 'Read the emulator clock',
    description: 'The emulated time and its speed. It stays where it was across restarts.',
    responses: { 200: jsonResponse(envelope(ClockState), 'The clock'), ...GUARDED },
  }),
  setClock: createRoute({
    method: 'post',
    path: '/clock',
    operationId: 'setClock',
    ...tagged('Clock'),
    summary: 'Set the emulator clock',
    description: 'Sets the speed, then the time. Moving the time backwards is allowed and fires nothing.',
    request: jsonBody(SetClockBody),
    responses: { 200: jsonResponse(envelope(ClockState), 'The clock once the change is stored'), ...GUARDED },
  }),
  advanceClock: createRoute({
    method: 'post',
    path: '/clock/advance',
    operationId: 'advanceClock',
    ...tagged('Clock'),
    summary: 'Advance the emulator clock',
    description: 'Jumps ahead by `by`, stepping to each due time in turn: every webhook retry that comes due on the way is made at its own emulated time.',
    request: jsonBody(AdvanceClockBody),
    responses: { 200: jsonResponse(envelope(AdvanceResult), 'The clock, and how many attempts were made'), ...GUARDED },
  }),
  listEvents: createRoute({
    method: 'get',
    path: '/events',
    operationId: 'listEvents',
    ...tagged('Events and deliveries'),
    summary: 'List the event log',
    description: 'Events of every tenant, newest first, optionally of one type and one tenant; at most `limit` (default 100).',
    request: { query: EventsQuery },
    responses: { 200: jsonResponse(list(RecordedEvent), 'The events, newest first'), ...GUARDED },
  }),
  listDeadLetters: createRoute({
    method: 'get',
    path: '/dlq',
    operationId: 'listDeadLetters',
    ...tagged('Events and deliveries'),
    summary: 'List the DLQ',
    description: 'Every dead delivery (its every retry failed), of every tenant, the latest to die first.',
    responses: { 200: jsonResponse(list(ControlDelivery), 'The dead deliveries'), ...GUARDED },
  }),
  retryDeadLetters: createRoute({
    method: 'post',
    path: '/dlq/retry',
    operationId: 'retryDeadLetters',
    ...tagged('Events and deliveries'),
    summary: 'Retry the whole DLQ',
    description: 'Sends every dead delivery whose webhook is still there once more (same event id), one after another; answers each result.',
    responses: { 200: jsonResponse(list(ControlDelivery), 'Each retried delivery after its attempt'), ...GUARDED },
  }),
  retryDelivery: createRoute({
    method: 'post',
    path: '/deliveries/{id}/retry',
    operationId: 'retryDelivery',
    ...tagged('Events and deliveries'),
    summary: 'Retry a dead delivery',
    description: 'Sends one dead delivery once more, with the same event id. 409 when it is not dead or its webhook was deleted.',
    request: { params: IdParam },
    responses: { 200: jsonResponse(envelope(ControlDelivery), 'The delivery after its attempt'), ...errorResponses(404, 409), ...GUARDED },
  }),
  resetStore: createRoute({
    method: 'post',
    path: '/reset',
    operationId: 'resetStore',
    ...tagged('Store'),
    summary: 'Reset the store',
    description:
      "Empties the store and seeds the server's fixture (`--seed`) again, in one durable write. The clock and injected faults stay as they are. 409 when the fixture cannot be read any more (the store is left as it was).",
    responses: { 200: jsonResponse(envelope(Seeded), 'The tenants seeded'), ...errorResponses(409), ...GUARDED },
  }),
  seedStore: createRoute({
    method: 'post',
    path: '/seed',
    operationId: 'seedStore',
    ...tagged('Store'),
    summary: 'Seed a fixture',
    description:
      'Adds the tenants, keys, apps, users (with their passkeys and guest sessions) and webhooks of a fixture document (the format of fixtures/default.json, docs/testing-with-svc.md#fixture-files). 409 when a tenant id or key exists.',
    request: jsonBody(Fixture),
    responses: { 201: jsonResponse(envelope(Seeded), 'The tenants seeded'), ...errorResponses(409), ...GUARDED },
  }),
  triggerEvent: createRoute({
    method: 'post',
    path: '/trigger',
    operationId: 'triggerEvent',
    ...tagged('Store'),
    summary: 'Record a sample event',
    description:
      'Records one event of any type, with sample data or `data`, for a tenant (default the first), as if the action had happened, and delivers it to the webhooks that subscribe to it.',
    request: jsonBody(TriggerBody),
    responses: {
      201: jsonResponse(envelope(Triggered), 'The event, and its deliveries after their first attempt'),
      ...errorResponses(404, 409),
      ...GUARDED,
    },
  }),
  listFaults: createRoute({
    method: 'get',
    path: '/faults',
    operationId: 'listFaults',
    ...tagged('Faults'),
    summary: 'List the faults',
    description: 'The faults still waiting for requests, with how many they will still hit.',
    responses: { 200: jsonResponse(list(Fault), 'The faults'), ...GUARDED },
  }),
  addFault: createRoute({
    method: 'post',
    path: '/faults',
    operationId: 'addFault',
    ...tagged('Faults'),
    summary: 'Add a fault',
    description:
      "The next `count` /v1 requests matching `method` and `path` (relative to /v1: `/users/:id`, `/webhooks/*`) wait `delay` (real time, at most 10m), then answer `status` in the error envelope; with `tenant`, only the requests that tenant's API key authenticates (none without a key or with another tenant's). A path that matches no route is refused; an unknown tenant is 404.",
    request: jsonBody(FaultBody),
    responses: { 201: jsonResponse(envelope(Fault), 'The fault'), ...errorResponses(404), ...GUARDED },
  }),
  clearFaults: createRoute({
    method: 'delete',
    path: '/faults',
    operationId: 'clearFaults',
    ...tagged('Faults'),
    summary: 'Remove every fault',
    description: 'Removes every fault, used up or not.',
    responses: { 200: jsonResponse(envelope(Cleared), 'How many were removed'), ...GUARDED },
  }),
};
