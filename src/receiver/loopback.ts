/**
 * The one loopback webhook receiver: an http server that reads each request whole, hands it
 * over as a ReceivedDelivery (the exact bytes and headers) and sends the answer it is given.
 * `svc webhook listen` (receiver.ts), the conformance suite and the tests (recorder.ts) are
 * built on it; each adds only its own policy: checks and forwarding, or recording by path.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as it reached the receiver. */
export interface ReceivedDelivery {
  method: string;
  /** The request target as sent: the path and any query. */
  path: string;
  /** Header names are lower-case here (Node's parser), so any case on the wire is accepted. */
  headers: IncomingHttpHeaders;
  /** The body bytes exactly as they arrived (up to the receiver's limit). */
  body: Buffer;
  /** The size of the body as sent; above `body.length` only when it passed the limit. */
  bodyBytes: number;
  /** Time of arrival, ms (the receiver's clock). */
  receivedAt: number;
}

/** Sends the answer to a delivery, as JSON. A delivery never replied to is held open until the receiver closes. */
export type Reply = (status: number, body: unknown) => void;

export interface LoopbackOptions {
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** Bytes of a body kept; the rest is read and dropped, so memory stays bounded. Default: no limit. */
  maxBodyBytes?: number;
  /** Wall clock in ms (tests); default Date.now. */
  nowMs?: () => number;
}

export interface Loopback {
  /** http://<host>:<port>, the host as senders should write it. */
  readonly origin: string;
  readonly port: number;
  /** Stops listening and drops held connections. */
  close(): Promise<void>;
}

function readBody(req: IncomingMessage, limit: number): Promise<{ body: Buffer; bodyBytes: number }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size <= limit) chunks.push(chunk);
    });
    req.on('end', () => resolve({ body: Buffer.concat(chunks), bodyBytes: size }));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
}

/** The host of a URL that reaches `host`: a wildcard address is reached on loopback, IPv6 in brackets. */
function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

/** Starts listening; resolves once it does. `answer` replies to each delivery (or holds it). */
export async function listenLoopback(options: LoopbackOptions, answer: (delivery: ReceivedDelivery, reply: Reply) => void | Promise<void>): Promise<Loopback> {
  const limit = options.maxBodyBytes ?? Number.POSITIVE_INFINITY;
  const now = options.nowMs ?? Date.now;
  const server = createServer((req, res) => {
    void (async () => {
      const { body, bodyBytes } = await readBody(req, limit);
      const delivery = { method: req.method ?? 'GET', path: req.url ?? '/', headers: req.headers, body, bodyBytes, receivedAt: now() };
      await answer(delivery, (status, answerBody) => send(res, status, answerBody));
    })().catch((error: unknown) => {
      if (!res.headersSent) send(res, 500, { error: `receiver error: ${(error as Error).message}`, code: 'internal_error', details: [] });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  return {
    origin: `http://${urlHost(options.host)}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
