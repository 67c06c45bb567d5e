/** Starts an app on @hono/node-server and stops it cleanly (drain, then close). */
import { executionAsyncResource } from 'node:async_hooks';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { createAdaptorServer } from '@hono/node-server';
import type { Hono } from 'hono';
import { ApiError } from './errors.js';

export class PortInUseError extends Error {
  constructor(
    readonly host: string,
    readonly port: number,
  ) {
    super(`port ${port} on ${host} is already in use; choose another with --port`);
    this.name = 'PortInUseError';
  }
}

export interface RunningServer {
  readonly host: string;
  readonly port: number;
  /** http://host:port, without a trailing slash. */
  readonly origin: string;
  /** Stops accepting, waits up to `graceMs` for in-flight requests, then closes what is left. */
  close(graceMs?: number): Promise<void>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyHono = Hono<any, any, any>;

/**
 * A request Node's HTTP parser refuses never reaches the app; answer it in the error envelope
 * too (D6) rather than Node's bare status line: headers over Node's limit, a timeout, bad HTTP.
 */
function answerClientError(error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const apiError =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? new ApiError('headers_too_large', 'The request headers are larger than the server accepts (16 KiB)')
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? new ApiError('request_timeout', 'The request took too long to arrive')
        : new ApiError('bad_request', 'The request is not valid HTTP/1.1');
  const body = JSON.stringify(apiError.toBody());
  // A HEAD request's answer has no body; the client would read one as garbage.
  const head = error.rawPacket?.subarray(0, 5).toString('latin1') === 'HEAD ';
  socket.end(
    `HTTP/1.1 ${apiError.status} ${STATUS_CODES[apiError.status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${head ? '' : body}`,
  );
}

/**
 * Fails with PortInUseError when `port` is taken (port 0 always has room), so a caller can
 * refuse before doing work that a busy port would waste. The real listen() still checks.
 */
export async function probePort(options: { port: number; host: string }): Promise<void> {
  if (options.port === 0) return;
  const probe = createNetServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', (error: NodeJS.ErrnoException) => {
      reject(error.code === 'EADDRINUSE' ? new PortInUseError(options.host, options.port) : error);
    });
    probe.listen(options.port, options.host, () => probe.close(() => resolve()));
  });
}

/**
 * One of the records process.nextTick() queues, kept for as long as the process runs (a
 * nextTick callback's executionAsyncResource() is its record).
 *
 * Node builds every record with one object literal whose first two keys are symbols. V8 adds
 * each such key as a transition from one hidden class (map) to the next, and holds those maps
 * weakly: between two turns of the event loop no record is alive, and a full garbage
 * collection then may drop them. Node's HTTP and stream code, which queues several records
 * per request, is optimized in the first seconds of load; what perf shows is that, optimized
 * in such a moment, it calls into V8's runtime to build every record from then on
 * (Runtime_DefineKeyedOwnPropertyInLiteral, MigrateToMap) and is not optimized again. Under
 * wrk that cost a GET by id about 5 µs of CPU and a fifth to a third of its requests a second:
 * in every start warmed with GETs alone (the bundle's text, 3 MB read as latin1, is an
 * external string, which moves when those collections come), and in four of six warmed with
 * GETs and searches. With a record kept, in none of twelve. A record keeps the maps: each
 * holds the one before it.
 */
let keptTickRecord: object | null = null;

/** The kept record, once the first server has started (for tests). */
export function keptNextTickRecord(): object | null {
  return keptTickRecord;
}

function keepNextTickRecord(): void {
  if (keptTickRecord !== null) return;
  process.nextTick(() => {
    keptTickRecord = executionAsyncResource();
  });
}

export async function listen(app: AnyHono, options: { port: number; host: string }): Promise<RunningServer> {
  keepNextTickRecord();
  const server = createAdaptorServer({ fetch: app.fetch, hostname: options.host }) as Server;
  server.on('clientError', answerClientError);
  await new Promise<void>((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException): void => {
      reject(error.code === 'EADDRINUSE' ? new PortInUseError(options.host, options.port) : error);
    };
    server.once('error', onError);
    server.listen(options.port, options.host, () => {
      server.off('error', onError);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const hostForUrl = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  let closing: Promise<void> | null = null;
  return {
    host: address.address,
    port: address.port,
    origin: `http://${hostForUrl}:${address.port}`,
    close(graceMs = 5_000) {
      closing ??= new Promise<void>((resolve) => {
        const force = setTimeout(() => server.closeAllConnections(), graceMs);
        force.unref();
        // A keep-alive connection turns idle once its in-flight answer is sent: close it then,
        // rather than waiting out the grace period for the client to hang up.
        const sweep = setInterval(() => server.closeIdleConnections(), 25);
        sweep.unref();
        server.close(() => {
          clearTimeout(force);
          clearInterval(sweep);
          resolve();
        });
        server.closeIdleConnections();
      });
      return closing;
    },
  };
}
