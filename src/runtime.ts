/**
 * The runtime: everything a server instance holds (store, clock, sealing key, options),
 * built once by createRuntime() and handed to createApp(). Services take it as their
 * first argument.
 */
import { Clock, type ClockOptions } from './clock/clock.js';
import { Sealer } from './crypto/seal.js';
import type { EventListener } from './services/events.js';
import { Store } from './store/store.js';

export interface RuntimeOptions {
  dataDir?: string;
  inMemory?: boolean;
  clock?: ClockOptions;
}

export interface Runtime {
  readonly store: Store;
  readonly clock: Clock;
  readonly sealer: Sealer;
  /** Whether the store was empty when opened (and so needs a seed). */
  readonly isNew: boolean;
  /** Hear every event recorded (the webhook dispatcher registers here). */
  readonly eventListeners: EventListener[];
  close(): Promise<void>;
}

export async function createRuntime(options: RuntimeOptions = {}): Promise<Runtime> {
  const { store, isNew } = await Store.open({
    ...(options.dataDir === undefined ? {} : { dataDir: options.dataDir }),
    inMemory: options.inMemory ?? false,
  });
  try {
    const sealer = Sealer.forDataDir(store.dataDir);
    const clock = new Clock(options.clock);
    return {
      store,
      clock,
      sealer,
      isNew,
      eventListeners: [],
      close: () => store.close(),
    };
  } catch (error) {
    await store.close();
    throw error;
  }
}
