/**
 * What the dashboard (D11) and the control plane read, named in the domain's words: the
 * tenants with their counts, the store's totals, webhooks with their deliveries by status, one
 * delivery with its webhook and payload, the DLQ and the event log with their tenants. Pages and
 * handlers read through here, never the store; the rules stay in the services this reuses.
 */
import type { Runtime } from '../runtime.js';
import type { TenantView } from '../schemas/tenant.js';
import type { DeliveryView, WebhookView } from '../schemas/webhooks.js';
import { EVENT_TYPES } from '../schemas/words.js';
import { eventPayload, type EventPayload } from '../webhooks/payload.js';
import { controlDeliveryView, deadLetters, eventLog, type EventFilter } from './control.js';
import { tenantView } from './tenant.js';
import { deliveryView, webhookView } from './webhooks.js';

type DeliveryStatus = DeliveryView['status'];

/** Where the store keeps its data: in memory, in a file under `dataDir`, or in PostgreSQL (shared by every process given its URL). */
export function storeInfo(rt: Runtime): { store: 'memory' | 'file' | 'postgres'; dataDir: string | null } {
  return { store: rt.store.kind, dataDir: rt.store.dataDir };
}

/** How much the emulator holds, across tenants. */
export interface StoreTotals {
  tenants: number;
  users: number;
  webhooks: number;
  /** Deliveries pending or failed: an attempt is still to come. */
  deliveriesWaiting: number;
  deadLetters: number;
  events: number;
}

export function storeTotals(rt: Runtime): StoreTotals {
  let deliveriesWaiting = 0;
  for (const delivery of rt.store.all('deliveries')) if (delivery.status === 'pending' || delivery.status === 'failed') deliveriesWaiting += 1;
  return {
    tenants: rt.store.count('tenants'),
    users: rt.store.count('users'),
    webhooks: rt.store.count('webhooks'),
    deliveriesWaiting,
    deadLetters: deadLetters(rt).length,
    events: rt.store.count('events'),
  };
}

/** A tenant with how many active API keys, apps, users and webhooks it has. */
export interface TenantSummary {
  id: string;
  name: string;
  plan: TenantView['plan'];
  createdAt: string;
  activeApiKeys: number;
  apps: number;
  users: number;
  webhooks: number;
}

/** Every tenant, in the order they were added, with its counts. */
export function tenantSummaries(rt: Runtime): TenantSummary[] {
  return [...rt.store.all('tenants')].map((tenant) => ({
    id: tenant.id,
    name: tenant.name,
    plan: tenant.plan,
    createdAt: tenant.createdAt,
    activeApiKeys: rt.store.ofTenant('apiKeys', tenant.id).filter((key) => key.revokedAt === null).length,
    apps: rt.store.count('apps', tenant.id),
    users: rt.store.count('users', tenant.id),
    webhooks: rt.store.count('webhooks', tenant.id),
  }));
}

/** Every tenant's id and name, in the order they were added (to choose one from). */
export function tenantNames(rt: Runtime): Array<{ id: string; name: string }> {
  return [...rt.store.all('tenants')].map(({ id, name }) => ({ id, name }));
}

/** A tenant's name, or its id when there is no such tenant. */
export function tenantName(rt: Runtime, tenantId: string): string {
  return rt.store.get('tenants', tenantId)?.name ?? tenantId;
}

/** A tenant by id, across tenants, or undefined. */
export function findTenant(rt: Runtime, id: string): TenantView | undefined {
  const tenant = rt.store.get('tenants', id);
  return tenant && tenantView(tenant);
}

/** How many users a tenant has. */
export function userCount(rt: Runtime, tenantId: string): number {
  return rt.store.count('users', tenantId);
}

/** A webhook as the dashboard shows it: with its tenant, since the dashboard spans tenants. */
export type TenantWebhookView = WebhookView & { tenantId: string };

/** A webhook by id, across tenants, or undefined. */
export function findWebhook(rt: Runtime, id: string): TenantWebhookView | undefined {
  const webhook = rt.store.get('webhooks', id);
  return webhook && { ...webhookView(webhook), tenantId: webhook.tenantId };
}

/** Every tenant with its webhooks, both in the order they were added. */
export function webhooksByTenant(rt: Runtime): Array<{ tenant: { id: string; name: string }; webhooks: WebhookView[] }> {
  return tenantNames(rt).map((tenant) => ({ tenant, webhooks: rt.store.ofTenant('webhooks', tenant.id).map(webhookView) }));
}

/** How many of a webhook's deliveries are in each status. */
export function deliveryCounts(rt: Runtime, tenantId: string, webhookId: string): Record<DeliveryStatus, number> {
  const counts: Record<DeliveryStatus, number> = { pending: 0, failed: 0, succeeded: 0, dead: 0 };
  for (const delivery of rt.store.ofTenant('deliveries', tenantId)) if (delivery.webhookId === webhookId) counts[delivery.status] += 1;
  return counts;
}

/** One delivery with what its page shows beside it: its webhook's URL and the signed payload. */
export interface DeliveryDetail extends DeliveryView {
  tenantId: string;
  /** When its webhook was deleted, or null. */
  orphanedAt: string | null;
  /** Null once the webhook is gone. */
  webhookUrl: string | null;
  /** Null once the event is gone. */
  payload: EventPayload | null;
}

/** A delivery by id, across tenants, or undefined. */
export function findDelivery(rt: Runtime, id: string): DeliveryDetail | undefined {
  const delivery = rt.store.get('deliveries', id);
  if (!delivery) return undefined;
  const event = rt.store.get('events', delivery.eventId);
  return {
    ...deliveryView(delivery),
    tenantId: delivery.tenantId,
    orphanedAt: delivery.orphanedAt ?? null,
    webhookUrl: rt.store.get('webhooks', delivery.webhookId)?.url ?? null,
    payload: event ? eventPayload(event) : null,
  };
}

/** A dead delivery with its tenant's name and its webhook's URL (null once the webhook is gone). */
export type DeadLetterEntry = DeliveryView & { tenantId: string; webhookDeleted: boolean; tenantName: string; webhookUrl: string | null };

/** The DLQ, the latest to die first, each with its tenant's name and webhook's URL. */
export function deadLetterEntries(rt: Runtime): DeadLetterEntry[] {
  return deadLetters(rt).map((delivery) => ({
    ...controlDeliveryView(delivery),
    tenantName: tenantName(rt, delivery.tenantId),
    webhookUrl: rt.store.get('webhooks', delivery.webhookId)?.url ?? null,
  }));
}

/** An event of the log with its tenant's name, how many deliveries it planned and its payload. */
export interface EventEntry {
  id: string;
  type: string;
  tenantId: string;
  tenantName: string;
  createdAt: string;
  deliveries: number;
  payload: EventPayload;
}

/** One page of the event log (newest first, filtered as eventLog is), and how many events match in all. */
export function eventLogPage(rt: Runtime, filter: EventFilter, range: { offset: number; limit: number }): { total: number; entries: EventEntry[] } {
  const all = eventLog(rt, filter);
  const page = all.slice(range.offset, range.offset + range.limit);
  const wanted = new Map(page.map((event) => [event.id, 0]));
  for (const delivery of rt.store.all('deliveries')) {
    const planned = wanted.get(delivery.eventId);
    if (planned !== undefined) wanted.set(delivery.eventId, planned + 1);
  }
  const entries = page.map((event) => ({
    id: event.id,
    type: event.type,
    tenantId: event.tenantId,
    tenantName: tenantName(rt, event.tenantId),
    createdAt: event.created_at,
    deliveries: wanted.get(event.id) ?? 0,
    payload: eventPayload(event),
  }));
  return { total: all.length, entries };
}

/** The event types the log can be filtered by: every known type and any other recorded, sorted. */
export function eventTypes(rt: Runtime): string[] {
  const types = new Set<string>(EVENT_TYPES);
  for (const event of rt.store.all('events')) types.add(event.type);
  return [...types].sort();
}
