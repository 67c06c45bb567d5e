/**
 * The suite's own webhook receiver: a real HTTP server (default 127.0.0.1, an ephemeral
 * port) that keeps every delivery's exact body bytes and headers, per path, and answers
 * each path as its check says (200, or failures on purpose to provoke retries).
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedDelivery {
  path: string;
  method: string;
  /** Header names are lower-case here (Node's parser), so any case on the wire is accepted. */
  headers: IncomingHttpHeaders;
  /** The body bytes exactly as they arrived. */
  body: Buffer;
  /** Real time of arrival, ms. */
  receivedAt: number;
}

/** How a path answers its n-th request (0-based). */
export type Responder = (index: number) => number;

export interface Receiver {
  /** The base URL deliveries are sent to, e.g. http://127.0.0.1:43121 */
  readonly origin: string;
  /** A fresh URL on this receiver that answers as `respond` says (200 by default). */
  endpoint(label: string, respond?: Responder): string;
  /** Changes how a path answers from now on. */
  setResponder(url: string, respond: Responder): void;
  received(url: string): ReceivedDelivery[];
  /** Waits until `url` has had `count` requests; rejects with a readable reason after `timeoutMs`. */
  waitFor(url: string, count: number, timeoutMs: number): Promise<ReceivedDelivery[]>;
  /** Waits for the first request to `url` that `match` accepts. */
  waitForMatch(url: string, match: (delivery: ReceivedDelivery) => boolean, timeoutMs: number): Promise<ReceivedDelivery>;
  close(): Promise<void>;
}

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

export async function startReceiver(options: { host: string; port: number; runId: string }): Promise<Receiver> {
  const byPath = new Map<string, ReceivedDelivery[]>();
  const responders = new Map<string, Responder>();
  const waiters = new Set<() => void>();
  let counter = 0;

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = (req.url ?? '/').split('?')[0]!;
      const list = byPath.get(path) ?? [];
      byPath.set(path, list);
      const index = list.length;
      list.push({ path, method: req.method ?? 'GET', headers: req.headers, body: Buffer.concat(chunks), receivedAt: Date.now() });
      const status = responders.get(path)?.(index) ?? 404;
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(status < 300 ? '{"received":true}' : '{"error":"failing on purpose (conformance)"}');
      for (const wake of [...waiters]) wake();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const origin = `http://${host}:${address.port}`;
  const pathOf = (url: string): string => new URL(url).pathname;
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
    origin,
    endpoint(label, respond = () => 200) {
      counter += 1;
      const path = `/conformance/${options.runId}/${label}-${counter}`;
      responders.set(path, respond);
      return `${origin}${path}`;
    },
    setResponder(url, respond) {
      responders.set(pathOf(url), respond);
    },
    received: (url) => [...(byPath.get(pathOf(url)) ?? [])],
    async waitFor(url, count, timeoutMs) {
      await until(
        () => (byPath.get(pathOf(url))?.length ?? 0) >= count,
        timeoutMs,
        () => new ReceiverTimeout(byPath.get(pathOf(url))?.length ?? 0, count, timeoutMs),
      );
      return (byPath.get(pathOf(url)) ?? []).slice(0, count);
    },
    async waitForMatch(url, match, timeoutMs) {
      const find = (): ReceivedDelivery | undefined => byPath.get(pathOf(url))?.find(match);
      await until(
        () => find() !== undefined,
        timeoutMs,
        () => new ReceiverTimeout(0, 1, timeoutMs),
      );
      return find()!;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
