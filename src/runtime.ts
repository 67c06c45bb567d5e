/**
 * The runtime: everything a server instance holds (store, clock, sealing key, options),
 * built once by createRuntime() and handed to createApp(). Services take it as their
 * first argument.
 */
import type { Clock, ClockOptions } from './clock/clock.js';
import { openClock } from './clock/persisted.js';
import { Sealer } from './crypto/seal.js';
import type { Logger } from './logger.js';
import type { EventListener } from './services/events.js';
import { Store } from './store/store.js';
import { Dispatcher } from './webhooks/dispatcher.js';

export interface RuntimeOptions {
  dataDir?: string;
  inMemory?: boolean;
  clock?: ClockOptions;
  /** Emulated delays between webhook attempts (D9); default RETRY_SCHEDULE. */
  retryScheduleMs?: number[];
  /** Real milliseconds a webhook target has to answer (D9); default 30 s. */
  deliveryTimeoutMs?: number;
  /** DNS server for custom-domain verification, `host:port` (D13); default the system's. */
  dnsServer?: string;
  /** Requests per second for every key, or 'off'; default the tenant plan's rate (D16). */
  rateLimit?: number | 'off';
  /** When set, /_emulator answers non-loopback callers that send it as a Bearer token (D11). */
  adminToken?: string;
  /** The fixture that seeds an empty store and POST /_emulator/reset (default fixtures/default.json). */
  seedFile?: string;
  logger?: Logger;
}

export interface Runtime {
  readonly store: Store;
  readonly clock: Clock;
  readonly sealer: Sealer;
  /** Whether the store was empty when opened (and so needs a seed). */
  readonly isNew: boolean;
  readonly options: Readonly<RuntimeOptions>;
  /** Hear every event recorded (the webhook dispatcher registers here). */
  readonly eventListeners: EventListener[];
  /** Sends webhook deliveries and keeps their retry schedule (D9). */
  readonly dispatcher: Dispatcher;
  close(): Promise<void>;
}

export async function createRuntime(options: RuntimeOptions = {}): Promise<Runtime> {
  const { store, isNew } = await Store.open({
    ...(options.dataDir === undefined ? {} : { dataDir: options.dataDir }),
    inMemory: options.inMemory ?? false,
  });
  try {
    const sealer = Sealer.forDataDir(store.dataDir);
    const clock = openClock(store.dataDir, options.clock);
    let dispatcher: Dispatcher | undefined;
    const rt: Runtime = {
      store,
      clock,
      sealer,
      isNew,
      options,
      eventListeners: [],
      get dispatcher() {
        if (!dispatcher) throw new Error('the dispatcher is not started');
        return dispatcher;
      },
      async close() {
        await dispatcher?.stop();
        await store.close();
      },
    };
    dispatcher = new Dispatcher(rt, options.logger);
    dispatcher.start();
    return rt;
  } catch (error) {
    await store.close();
    throw error;
  }
}
