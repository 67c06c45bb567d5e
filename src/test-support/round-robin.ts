/**
 * A tiny round-robin HTTP proxy on a loopback port, the load balancer in front of several
 * `svc serve` processes: each request goes to the next backend in turn; one that refuses the
 * connection (a killed process) is skipped for the next.
 */
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RoundRobin {
  /** http://127.0.0.1:port */
  readonly origin: string;
  /** How many requests each backend answered. */
  readonly answered: number[];
  close(): Promise<void>;
}

export async function startRoundRobin(backends: string[]): Promise<RoundRobin> {
  let next = 0;
  const answered = backends.map(() => 0);
  // A retry goes to the backend after the one that refused, not to the shared next: requests in
  // flight meanwhile move that on, and could hand the retry the dead backend again.
  const forward = (incoming: IncomingMessage, body: Buffer, response: ServerResponse, tries: number, index = next++ % backends.length): void => {
    const target = new URL(incoming.url ?? '/', backends[index]);
    const outgoing = request(target, { method: incoming.method, headers: { ...incoming.headers, host: target.host } }, (answer) => {
      answered[index]! += 1;
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
    });
    outgoing.on('error', (error: NodeJS.ErrnoException) => {
      if (!response.headersSent && tries < backends.length && (error.code === 'ECONNREFUSED' || error.code === 'ECONNRESET')) {
        forward(incoming, body, response, tries + 1, (index + 1) % backends.length);
        return;
      }
      if (!response.headersSent) response.writeHead(502, { 'content-type': 'text/plain' });
      response.end(`round-robin proxy: ${error.message}`);
    });
    outgoing.end(body);
  };
  // Headers as large as svc takes pass through, so svc itself answers those over its limit (431 in its envelope).
  const server: Server = createServer({ maxHeaderSize: 64 * 1024 }, (incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => forward(incoming, Buffer.concat(chunks), response, 1));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    answered,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
