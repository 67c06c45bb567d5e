/**
 * The runtime's contract: the shape of everything a server instance holds (store, clock,
 * scheduler, sealing key, options, the webhook dispatcher as the services see it). Types
 * only: createRuntime() in emulator.ts builds one, and services take it as their first
 * argument.
 */
import type { Clock, ClockOptions } from './clock/clock.js';
import type { Scheduler } from './clock/scheduler.js';
import type { Sealer } from './crypto/seal.js';
import type { Logger } from './logger.js';
import type { DeliveryRecord, EventRecord } from './store/records.js';
import type { Store } from './store/store.js';

/** `svc serve --cors`: any origin, none (no CORS headers at all), or these origins instead of the loopback ones. */
export type CorsSetting = '*' | 'off' | readonly string[];

export interface RuntimeOptions {
  dataDir?: string;
  inMemory?: boolean;
  /** A PostgreSQL URL: keep the store there, shared with every process given the same URL; wins over dataDir. */
  storeUrl?: string;
  /** How long a stalled process may hold the others on a shared store, in ms (`--store-timeout`; default 3 s). */
  storeHoldMs?: number;
  clock?: ClockOptions;
  /** Emulated delays between webhook attempts (D9); default RETRY_SCHEDULE. */
  retryScheduleMs?: number[];
  /** Real milliseconds a webhook target has to answer (D9); default 30 s. */
  deliveryTimeoutMs?: number;
  /** DNS server for custom-domain verification, `host:port` (D13); default the system's. */
  dnsServer?: string;
  /**
   * Which addresses webhooks may reach (webhooks/targets.ts): presets `local`, `public`,
   * `any`, networks and host names, comma-separated; default `local` (link-local refused).
   */
  webhookTargets?: string;
  /** DNS server webhook host names are resolved with, `host:port`; default the system's look-up. */
  webhookDnsServer?: string;
  /** Requests per second for every key, or 'off'; default the tenant plan's rate (D16). */
  rateLimit?: number | 'off';
  /** Which browser origins may call /v1: any, none, or these instead of the loopback ones; default loopback and the tenants'. */
  cors?: CorsSetting;
  /**
   * When set, every call of /_emulator must send it as a Bearer token, loopback callers included
   * (docs/control-plane.md#a-shared-host).
   */
  adminToken?: string;
  /**
   * Host names and addresses answered besides the loopback ones (`--allowed-hosts`; svc serve adds
   * its --host address), or 'all' for any (middleware/host-check.ts, docs/control-plane.md#host-names).
   */
  allowedHosts?: readonly string[] | 'all';
  /** The fixture that seeds an empty store and POST /_emulator/reset (default fixtures/default.json). */
  seedFile?: string;
  /**
   * What the ids of seeded records are derived from (`--id-seed`, docs/serve.md#stable-ids):
   * default a fixed seed, so every start and reset seeds the same ids; `random` for random ones.
   */
  idSeed?: string;
  /** The port the emulator listens on, once known: seeded tenants' passkey origin follows it (default 4010). */
  port?: number;
  /**
   * The URL svc is reached at (`svc serve --public-url`, base-url.ts publicUrl()): what the OpenAPI
   * documents' `servers` and the checkout pages' links name. Default: where it listens, on
   * loopback (base-url.ts ownUrl()); never the Host a request was sent with.
   */
  publicUrl?: string;
  /** How many answered requests the request journal keeps in memory (services/request-journal.ts); 0 keeps none. */
  journalSize?: number;
  logger?: Logger;
}

/** How an event is handed to the dispatcher (services/events.ts → webhooks/dispatcher.ts). */
export interface EmitOptions {
  /** Deliver to this webhook only, whatever it subscribes to (test events, D8). */
  webhookId?: string;
}

/** The webhook dispatcher as the services use it (D8, D9; webhooks/dispatcher.ts). */
export interface Deliveries {
  /** Inside the event's store write: plans one delivery per subscribed webhook, sent once the write is durable. */
  eventRecorded(event: EventRecord, options: EmitOptions): void;
  /** Sends a delivery's next attempt now and answers the delivery after it (test events, triggers). */
  attemptNow(id: string): Promise<DeliveryRecord>;
  /** Puts a dead delivery back to pending for one more attempt (same event id) and sends it. */
  retry(tenantId: string | null, id: string): Promise<DeliveryRecord>;
}

/** An address and port one of this process's listeners is bound to. */
export interface ListeningAddress {
  readonly address: string;
  readonly port: number;
}

export interface Runtime {
  readonly store: Store;
  readonly clock: Clock;
  /** Runs what waits on the clock (the delivery attempts) and moves the clock forward (D10). */
  readonly scheduler: Scheduler;
  readonly sealer: Sealer;
  /** Whether the store was empty when opened (and so needs a seed). */
  readonly isNew: boolean;
  readonly options: Readonly<RuntimeOptions>;
  /** Sends webhook deliveries and keeps their retry schedule (D9). */
  readonly dispatcher: Deliveries;
  /**
   * Where this process listens: each listener adds itself once bound (server.ts) and leaves on
   * close. No webhook attempt reaches any of them (docs/webhook-targets.md#svc-never-calls-itself);
   * empty for an app with no listener (the in-process test app).
   */
  readonly listening: Set<ListeningAddress>;
  close(): Promise<void>;
}
