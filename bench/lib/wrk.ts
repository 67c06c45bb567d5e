/**
 * Load on loopback with wrk (C, one epoll thread): it can send far more than autocannon's one
 * Node process, so a bare server is measured rather than the client. Bounded in time; answers
 * the same LoadResult as load(). When wrk is not installed, WRK is undefined and the bench
 * leaves out its rows, saying so.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONNECTIONS, SECONDS, type LoadResult } from './load.js';
import { LOAD_CORES, TASKSET } from './processes.js';

export const WRK = ['/usr/bin/wrk', '/usr/local/bin/wrk'].find((path) => existsSync(path));

export interface WrkOptions {
  url: string;
  headers?: Record<string, string>;
  /** The paths to cycle through, one request each in turn. */
  paths: readonly string[];
  seconds?: number;
  connections?: number;
}

const lua = (value: string): string => JSON.stringify(value); // a JSON string is a valid Lua string literal for these ASCII values

/** Requests are formatted once per thread (init), so wrk's Lua costs a table lookup per request. */
function script(options: WrkOptions): string {
  const headers = Object.entries(options.headers ?? {}).map(([name, value]) => `wrk.headers[${lua(name)}] = ${lua(value)}`);
  return `${headers.join('\n')}
local paths = { ${options.paths.map(lua).join(', ')} }
local requests = {}
local i = 0
function init(args)
  for n, path in ipairs(paths) do requests[n] = wrk.format(nil, path) end
end
function request()
  i = i + 1
  return requests[(i % #requests) + 1]
end
function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('WRK_RESULT %d %d %d %d %d %d\\n', summary.requests, summary.duration,
    latency:percentile(50), latency:percentile(99), e.status, e.connect + e.read + e.write + e.timeout))
end
`;
}

export async function wrk(options: WrkOptions): Promise<LoadResult> {
  if (!WRK) throw new Error('wrk is not installed');
  if (!/^http:\/\/(127\.|localhost|\[::1\])/.test(options.url)) throw new Error(`wrk goes to loopback only, not ${options.url}`);
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-wrk-'));
  try {
    const file = join(dir, 'paths.lua');
    writeFileSync(file, script(options));
    const seconds = options.seconds ?? SECONDS;
    const args = ['-t1', `-c${options.connections ?? CONNECTIONS}`, `-d${seconds}s`, '--timeout', '5s', '-s', file, options.url];
    const [command, argv] = TASKSET ? [TASKSET, ['-c', LOAD_CORES, WRK, ...args]] : [WRK, args];
    const stdout = await new Promise<string>((resolve, reject) => {
      execFile(command, argv, { timeout: (seconds + 30) * 1000 }, (error, out, err) =>
        error ? reject(new Error(`wrk failed: ${error.message}\n${err}`)) : resolve(out),
      );
    });
    const match = /WRK_RESULT (\d+) (\d+) (\d+) (\d+) (\d+) (\d+)/.exec(stdout);
    if (!match) throw new Error(`wrk printed no result:\n${stdout}`);
    const [requests, durationUs, p50Us, p99Us, non2xx, errors] = match.slice(1).map(Number) as [number, number, number, number, number, number];
    const ms = (us: number): number => Math.round(us / 100) / 10;
    return { rps: requests / (durationUs / 1e6), p50: ms(p50Us), p99: ms(p99Us), non2xx, errors };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
