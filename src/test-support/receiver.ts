/** A real webhook receiver on a loopback port that records every request, for tests. */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  headers: IncomingHttpHeaders;
  body: string;
  receivedAt: number;
}

export interface TestReceiver {
  url: string;
  received: ReceivedRequest[];
  /** Status to answer (a function of the request index), default 200. */
  respond: (index: number) => number;
  /** Resolves once `count` requests have arrived. */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
}

export async function startReceiver(respond: (index: number) => number = () => 200): Promise<TestReceiver> {
  const received: ReceivedRequest[] = [];
  const waiters: Array<() => void> = [];
  const receiver: TestReceiver = {
    url: '',
    received,
    respond,
    waitFor(count, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`only ${received.length} of ${count} requests arrived`)), timeoutMs);
        const check = (): void => {
          if (received.length >= count) {
            clearTimeout(timer);
            resolve(received.slice(0, count));
          } else waiters.push(check);
        };
        check();
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const index = received.length;
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), receivedAt: Date.now() });
      res.statusCode = receiver.respond(index);
      res.end('{}');
      for (const waiter of waiters.splice(0)) waiter();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return receiver;
}
