/**
 * The loopback receiver as a recorder, for the conformance suite and the tests: it keeps every
 * delivery's exact bytes and headers by path, answers each path as it is told (200, or failures
 * on purpose to provoke retries) and lets a caller wait for what should arrive. It checks
 * nothing: the suite and the tests verify what was recorded themselves.
 */
import { listenLoopback, type ReceivedDelivery } from './loopback.js';

export type { ReceivedDelivery };

/** How a path answers its n-th request (0-based): the status to send. */
export type Responder = (index: number) => number;

export interface Recorder {
  /** The base URL deliveries are sent to, e.g. http://127.0.0.1:43121 */
  readonly origin: string;
  /** Answers requests to the path of `url` as `respond` says from now on; a path with no responder answers 404. */
  setResponder(url: string, respond: Responder): void;
  /** The deliveries to the path of `url` so far, in order of arrival. */
  received(url: string): ReceivedDelivery[];
  /** Waits until `url` has had `count` requests; rejects with a ReceiverTimeout after `timeoutMs`. */
  waitFor(url: string, count: number, timeoutMs: number): Promise<ReceivedDelivery[]>;
  /** Waits for the first request to `url` that `match` accepts. */
  waitForMatch(url: string, match: (delivery: ReceivedDelivery) => boolean, timeoutMs: number): Promise<ReceivedDelivery>;
  close(): Promise<void>;
}

/** A wait that ran out: how many deliveries came of how many wanted. */
export class ReceiverTimeout extends Error {
  constructor(
    readonly got: number,
    readonly wanted: number,
    timeoutMs: number,
  ) {
    super(`${got} of ${wanted} deliveries arrived within ${Math.round(timeoutMs / 100) / 10} s`);
    this.name = 'ReceiverTimeout';
  }
}

/** A path with its query left off; `url` may be a whole URL or a request target. */
function pathOf(url: string): string {
  return new URL(url, 'http://receiver').pathname;
}

/** Starts a recorder; resolves once it listens. Port 0 picks a free one. */
export async function startRecorder(options: { host: string; port: number }): Promise<Recorder> {
  const byPath = new Map<string, ReceivedDelivery[]>();
  const responders = new Map<string, Responder>();
  const waiters = new Set<() => void>();

  const loopback = await listenLoopback(options, (delivery, reply) => {
    const path = pathOf(delivery.path);
    const list = byPath.get(path) ?? [];
    byPath.set(path, list);
    const index = list.length;
    list.push(delivery);
    const status = responders.get(path)?.(index) ?? 404;
    reply(status, status < 300 ? { received: true } : { error: 'failing on purpose' });
    for (const wake of [...waiters]) wake();
  });

  const deliveriesTo = (url: string): ReceivedDelivery[] => byPath.get(pathOf(url)) ?? [];
  /** Resolves when `ready()` holds, checked on every arrival; rejects with `timeout()` otherwise. */
  const until = (ready: () => boolean, timeoutMs: number, timeout: () => Error): Promise<void> =>
    new Promise((resolve, reject) => {
      if (ready()) return resolve();
      const wake = (): void => {
        if (!ready()) return;
        finish();
        resolve();
      };
      const timer = setTimeout(() => {
        finish();
        reject(timeout());
      }, timeoutMs);
      // An abandoned wait (Ctrl-C) must not keep the process alive.
      timer.unref();
      const finish = (): void => {
        clearTimeout(timer);
        waiters.delete(wake);
      };
      waiters.add(wake);
    });

  return {
    origin: loopback.origin,
    setResponder(url, respond) {
      responders.set(pathOf(url), respond);
    },
    received: (url) => [...deliveriesTo(url)],
    async waitFor(url, count, timeoutMs) {
      await until(
        () => deliveriesTo(url).length >= count,
        timeoutMs,
        () => new ReceiverTimeout(deliveriesTo(url).length, count, timeoutMs),
      );
      return deliveriesTo(url).slice(0, count);
    },
    async waitForMatch(url, match, timeoutMs) {
      const find = (): ReceivedDelivery | undefined => deliveriesTo(url).find(match);
      await until(
        () => find() !== undefined,
        timeoutMs,
        () => new ReceiverTimeout(0, 1, timeoutMs),
      );
      return find()!;
    },
    close: () => loopback.close(),
  };
}
