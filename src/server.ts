/** Starts an app on @hono/node-server and stops it cleanly (drain, then close). */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createAdaptorServer } from '@hono/node-server';
import type { Hono } from 'hono';

export class PortInUseError extends Error {
  constructor(readonly host: string, readonly port: number) {
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

export async function listen(app: AnyHono, options: { port: number; host: string }): Promise<RunningServer> {
  const server = createAdaptorServer({ fetch: app.fetch, hostname: options.host }) as Server;
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
        server.close(() => {
          clearTimeout(force);
          resolve();
        });
        server.closeIdleConnections();
      });
      return closing;
    },
  };
}
