/** The servers the bench starts: svc, the bare Hono app, json-server 1.x and 0.17, the latency proxy. */
import { fileURLToPath } from 'node:url';
import { freePort, startServer, type ServerProcess } from './processes.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** The svc under test; BENCH_SVC_BIN points the same bench at another build (an older checkout, to compare). */
export const SVC_BIN = process.env['BENCH_SVC_BIN'] ?? `${ROOT}bin/svc.js`;
const server = (name: string): string => fileURLToPath(new URL(`../servers/${name}`, import.meta.url));

/** `svc serve` on `dataDir`, on `cores` (default the server's one core); benchmarks turn rate limits off unless `extraArgs` say otherwise. */
export async function startSvc(
  dataDir: string,
  extraArgs: string[] = ['--rate-limit', 'off'],
  env: Record<string, string | undefined> = {},
  cores?: string,
): Promise<ServerProcess> {
  const port = await freePort();
  return startServer({
    command: process.execPath,
    args: [SVC_BIN, 'serve', '--port', String(port), '--data-dir', dataDir, '--quiet', ...extraArgs],
    origin: `http://127.0.0.1:${port}`,
    readyPath: '/healthz',
    env,
    ...(cores === undefined ? {} : { cores }),
  });
}

export async function startBare(env: Record<string, string | undefined> = {}): Promise<ServerProcess> {
  const port = await freePort();
  return startServer({
    command: process.execPath,
    args: [server('bare-hono.mjs')],
    origin: `http://127.0.0.1:${port}`,
    readyPath: '/healthz',
    env: { ...env, PORT: String(port) },
  });
}

export async function startJsonServer(version: '1.x' | '0.17', file: string): Promise<ServerProcess> {
  const port = await freePort();
  const bin = version === '1.x' ? `${ROOT}node_modules/json-server/lib/bin.js` : `${ROOT}node_modules/json-server-017/lib/cli/bin.js`;
  const args =
    version === '1.x' ? [bin, '--port', String(port), '--host', '127.0.0.1', file] : [bin, '--port', String(port), '--host', '127.0.0.1', '--quiet', file];
  return startServer({ command: process.execPath, args, origin: `http://127.0.0.1:${port}`, readyPath: '/users?_limit=1' });
}

/** A proxy in front of `upstream` that holds every answer `delayMs` (bench/servers/latency-proxy.mjs). */
export async function startLatencyProxy(upstream: string, delayMs: number): Promise<ServerProcess> {
  const port = await freePort();
  return startServer({
    command: process.execPath,
    args: [server('latency-proxy.mjs')],
    origin: `http://127.0.0.1:${port}`,
    readyPath: '/healthz',
    env: { PORT: String(port), UPSTREAM: upstream, DELAY_MS: String(delayMs) },
  });
}

export async function withServer<T>(start: Promise<ServerProcess>, run: (server: ServerProcess) => Promise<T>): Promise<T> {
  const started = await start;
  try {
    return await run(started);
  } finally {
    await started.stop();
  }
}
