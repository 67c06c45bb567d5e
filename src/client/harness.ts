/**
 * The typed client's calls for test runs (issue 35), under `client.emulator`: a tenant per test
 * worker, the request journal, and waiting for an event or a webhook delivery without a
 * polling loop in every test. They speak to the control plane (`/_emulator`), so they work
 * against svc, not against another deployment of the API.
 */
import type { z } from '@hono/zod-openapi';
import type { CreateTenantInput, JournalEntry, RecordedEvent } from '../schemas/harness.js';
import type { Delivery, DeliveryStatus } from '../schemas/webhooks.js';
import type { FixtureInput } from '../schemas/fixture.js';
import type { ApiResult, CallOptions } from './transport.js';
import { unwrap } from './transport.js';

export type { JournalEntry, RecordedEvent };

type R<T> = Promise<ApiResult<{ data: T }>>;
type Control = <T>(method: string, path: string, extra?: CallOptions) => Promise<ApiResult<T>>;

export interface TestTenant {
  tenant: { id: string; name: string; plan: string };
  apiKey: string;
  template: string | null;
}

export interface RequestFilter {
  tenant?: string;
  method?: string;
  /** `/v1/users`, or a prefix ending in `*`. */
  path?: string;
  /** `201`, or a class such as `4xx`. */
  status?: string | number;
  requestId?: string;
  after?: number;
  limit?: number;
}

export type ControlDelivery = z.infer<typeof Delivery> & { tenantId: string; webhookDeleted: boolean };

export interface WaitOptions {
  /** The tenant to look in (a test worker's own); every tenant when left out. */
  tenant?: string;
  type?: string;
  /** A deep partial match on the event's `data` (objects by their given fields, the rest by equality). */
  match?: Record<string, unknown>;
  /** Real milliseconds to wait (default 10 s), then the wait fails with a TimeoutError naming what it waited for. */
  timeoutMs?: number;
  /** Real milliseconds between looks (default 50). */
  intervalMs?: number;
}

/** Whether `actual` holds everything `expected` says: objects field by field, arrays and the rest by equality. */
export function matches(actual: unknown, expected: unknown): boolean {
  if (expected === null || typeof expected !== 'object' || Array.isArray(expected)) return JSON.stringify(actual) === JSON.stringify(expected);
  if (actual === null || typeof actual !== 'object') return false;
  return Object.entries(expected).every(([name, value]) => matches((actual as Record<string, unknown>)[name], value));
}

/** Looks with `find` until it answers something, or fails after the timeout saying what it waited for. */
async function until<T>(what: string, options: WaitOptions, find: () => Promise<T | undefined>): Promise<T> {
  const deadline = performance.now() + (options.timeoutMs ?? 10_000);
  for (;;) {
    const found = await find();
    if (found !== undefined) return found;
    if (performance.now() >= deadline) {
      const error = new Error(`waited ${options.timeoutMs ?? 10_000} ms for ${what}; none came`);
      error.name = 'TimeoutError';
      throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 50));
  }
}

function describeWait(noun: string, options: WaitOptions): string {
  const parts = [options.type ?? 'any type', options.tenant === undefined ? 'any tenant' : `tenant ${options.tenant}`];
  if (options.match !== undefined) parts.push(`data matching ${JSON.stringify(options.match)}`);
  return `${noun} (${parts.join(', ')})`;
}

export function harnessCalls(control: Control) {
  const id = (value: string): string => encodeURIComponent(value);
  const events = (tenant: string | undefined, type: string | undefined) =>
    control<{ data: RecordedEvent[] }>('GET', '/events', { query: { tenant, type, limit: 1000 } });
  const deliveries = (
    filter: { tenant?: string; eventType?: string; eventId?: string; status?: z.infer<typeof DeliveryStatus> } = {},
    extra?: CallOptions,
  ): R<ControlDelivery[]> =>
    control('GET', '/deliveries', {
      ...extra,
      query: { tenant: filter.tenant, event_type: filter.eventType, event_id: filter.eventId, status: filter.status },
    });

  const waitForEvent = (options: WaitOptions = {}): Promise<RecordedEvent> =>
    until(describeWait('an event', options), options, async () =>
      unwrap(await events(options.tenant, options.type)).data.find((event) => options.match === undefined || matches(event.data, options.match)),
    );

  return {
    /** A tenant per test worker: made from the fixture's template (or a plan), reset alone, removed. */
    tenants: {
      list: (extra?: CallOptions): R<Array<TestTenant['tenant'] & { users: number; apps: number; webhooks: number }>> => control('GET', '/tenants', extra),
      create: (body: Partial<CreateTenantInput> = {}, extra?: CallOptions): R<TestTenant> => control('POST', '/tenants', { ...extra, body }),
      reset: (tenantId: string, body: { template?: string | null } = {}, extra?: CallOptions): R<{ tenant: TestTenant['tenant']; removed: number }> =>
        control('POST', `/tenants/${id(tenantId)}/reset`, { ...extra, body }),
      remove: (tenantId: string, extra?: CallOptions): R<{ id: string; deleted: true; removed: number }> =>
        control('DELETE', `/tenants/${id(tenantId)}`, extra),
    },
    /** The request journal, oldest first; with `limit`, the newest `limit` entries. */
    requests: (filter: RequestFilter = {}, extra?: CallOptions): R<JournalEntry[]> =>
      control('GET', '/requests', {
        ...extra,
        query: {
          tenant: filter.tenant,
          method: filter.method,
          path: filter.path,
          status: filter.status === undefined ? undefined : String(filter.status),
          request_id: filter.requestId,
          after: filter.after,
          limit: filter.limit,
        },
      }),
    clearRequests: (tenant?: string, extra?: CallOptions): R<{ cleared: number }> => control('DELETE', '/requests', { ...extra, query: { tenant } }),
    /** Every delivery, of one tenant, event type, event or status. */
    deliveries,
    /** Sends an event again (same event id) to its webhooks, or every event since a time (ISO, or a duration such as `10m`). */
    redeliver: (
      body: { eventId?: string; since?: string; tenant?: string },
      extra?: CallOptions,
    ): R<{ events: number; redelivered: ControlDelivery[]; skipped: Array<{ id: string; eventId: string; status: string; reason: string }> }> =>
      control('POST', '/redeliver', { ...extra, body }),
    /** The store, or one tenant, as a fixture that `svc serve --seed` and `svc seed` take back. */
    export: (
      tenant?: string,
      extra?: CallOptions,
    ): R<{ fixture: FixtureInput; replacedKeys: Array<{ tenantId: string; key: string }>; leftOut: Record<string, number> }> =>
      control('GET', '/export', { ...extra, query: { tenant } }),
    /** Waits for an event in the event log (newest first): of a type, in a tenant, whose data matches. */
    waitForEvent,
    /**
     * Waits for an event's delivery to reach `status` (default `succeeded`: the webhook target
     * answered 2xx). Answers the delivery and its event.
     */
    waitForDelivery: async (
      options: WaitOptions & { status?: z.infer<typeof DeliveryStatus> } = {},
    ): Promise<{ delivery: ControlDelivery; event: RecordedEvent }> => {
      const status = options.status ?? 'succeeded';
      const started = performance.now();
      const event = await waitForEvent(options);
      const left = { ...options, timeoutMs: Math.max(0, (options.timeoutMs ?? 10_000) - (performance.now() - started)) };
      const delivery = await until(
        `a ${status} delivery of event ${event.id} (${event.type})`,
        left,
        async () => unwrap(await deliveries({ eventId: event.id, status })).data[0],
      );
      return { delivery, event };
    },
  };
}
