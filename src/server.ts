/** Starts an app on @hono/node-server and stops it cleanly (drain, then close). */
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { createAdaptorServer } from '@hono/node-server';
import { ApiError } from './errors.js';
import type { ListeningAddress } from './runtime.js';
import { BatchedResponse } from './answers/batched-response.js';

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
 * Serves `app` (a Hono app, or anything with its fetch) on `options.port`. Once bound, the
 * address and port are added to `options.listening` (the runtime's, so that no webhook
 * reaches this listener) until the server is closed.
 */
export async function listen(
  app: { fetch: (request: Request, env?: unknown) => Response | Promise<Response> },
  options: { port: number; host: string; listening?: Set<ListeningAddress> },
): Promise<RunningServer> {
  // Answers written together at the end of each turn of the event loop (answers/batched-response.ts).
  const server = createAdaptorServer({ fetch: app.fetch, hostname: options.host, serverOptions: { ServerResponse: BatchedResponse } }) as Server;
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
  const bound: ListeningAddress = { address: address.address, port: address.port };
  options.listening?.add(bound);
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
          options.listening?.delete(bound);
          resolve();
        });
        server.closeIdleConnections();
      });
      return closing;
    },
  };
}
