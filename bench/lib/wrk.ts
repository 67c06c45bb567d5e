/**
 * Load on loopback with wrk (C, one epoll thread): it can send far more than autocannon's one
 * Node process, so a bare server is measured rather than the client. Bounded in time; answers
 * the same LoadResult as load(), with the exact count of requests. When wrk is not installed,
 * WRK is undefined and the bench leaves out its rows, saying so.
 *
 * With `countWakeups`, and where `perf` may count kernel tracepoints for the whole machine
 * (root, or perf_event_paranoid of -1), wrk runs under `perf stat` counting the interrupts one
 * core sends another to wake a thread (ipi:ipi_send_cpu). Under this load nearly all of them
 * are the server waking wrk's thread, asleep until an answer arrives.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONNECTIONS, SECONDS, type LoadResult } from './load.js';
import { LOAD_CORES, TASKSET } from './processes.js';

export const WRK = ['/usr/bin/wrk', '/usr/local/bin/wrk'].find((path) => existsSync(path));
const PERF = ['/usr/bin/perf', '/usr/local/bin/perf'].find((path) => existsSync(path));
const WAKEUP_EVENT = 'ipi:ipi_send_cpu';

/** What a run sends: GETs of `paths`, one each in turn; or POSTs (`post`). */
export type WrkOptions = {
  url: string;
  headers?: Record<string, string>;
  seconds?: number;
  connections?: number;
  /** Also count the wake-ups between cores during the run (see above), where perf can. */
  countWakeups?: boolean;
} & (
  | { paths: readonly string[] }
  | {
      /**
       * POST `body` to `path`, `{n}` in the body replaced by the request's number (count from 1
       * in each run; put something of the run's own in the body to keep names apart across
       * runs), each request with the next of `apiKeys` in turn as its x-api-key.
       */
      post: { path: string; body: string; apiKeys: readonly string[] };
    }
);

export interface WrkResult extends LoadResult {
  /** Requests answered in the run, as wrk counted them. */
  requests: number;
  /** Interrupts sent between cores to wake a thread, per request answered; undefined where perf cannot count them. */
  wakeupsPerRequest: number | undefined;
}

const run = (command: string, argv: string[], timeoutMs: number): Promise<string> =>
  new Promise((resolve, reject) => {
    execFile(command, argv, { timeout: timeoutMs }, (error, out, err) =>
      error ? reject(new Error(`${command} failed: ${error.message}\n${err}`)) : resolve(out),
    );
  });

let perfCounts: Promise<boolean> | undefined;
/** Whether perf is there and may count WAKEUP_EVENT on every core; tried once. */
function perfCountsWakeups(): Promise<boolean> {
  perfCounts ??= PERF
    ? run(PERF, ['stat', '-a', '-x,', '-e', WAKEUP_EVENT, '--', 'true'], 10_000).then(
        () => true,
        () => false,
      )
    : Promise.resolve(false);
  return perfCounts;
}

const lua = (value: string): string => JSON.stringify(value); // a JSON string is a valid Lua string literal for these ASCII values

/** GETs are formatted once per thread (init), so wrk's Lua costs a table lookup per request; a POST is formatted per request, its body numbered. */
function script(options: WrkOptions): string {
  const headers = Object.entries(options.headers ?? {}).map(([name, value]) => `wrk.headers[${lua(name)}] = ${lua(value)}`);
  const requests =
    'post' in options
      ? `local keys = { ${options.post.apiKeys.map(lua).join(', ')} }
local path, body = ${lua(options.post.path)}, ${lua(options.post.body)}
local i = 0
function request()
  i = i + 1
  local headers = { ["content-type"] = "application/json", ["x-api-key"] = keys[(i % #keys) + 1] }
  for name, value in pairs(wrk.headers) do headers[name] = headers[name] or value end
  return wrk.format("POST", path, headers, (string.gsub(body, "{n}", tostring(i))))
end`
      : `local paths = { ${options.paths.map(lua).join(', ')} }
local requests = {}
local i = 0
function init(args)
  for n, path in ipairs(paths) do requests[n] = wrk.format(nil, path) end
end
function request()
  i = i + 1
  return requests[(i % #requests) + 1]
end`;
  return `${headers.join('\n')}
${requests}
function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('WRK_RESULT %d %d %d %d %d %d\\n', summary.requests, summary.duration,
    latency:percentile(50), latency:percentile(99), e.status, e.connect + e.read + e.write + e.timeout))
end
`;
}

export async function wrk(options: WrkOptions): Promise<WrkResult> {
  if (!WRK) throw new Error('wrk is not installed');
  if (!/^http:\/\/(127\.|localhost|\[::1\])/.test(options.url)) throw new Error(`wrk goes to loopback only, not ${options.url}`);
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-wrk-'));
  try {
    const file = join(dir, 'paths.lua');
    writeFileSync(file, script(options));
    const seconds = options.seconds ?? SECONDS;
    const args = ['-t1', `-c${options.connections ?? CONNECTIONS}`, `-d${seconds}s`, '--timeout', '5s', '-s', file, options.url];
    let [command, argv] = TASKSET ? [TASKSET, ['-c', LOAD_CORES, WRK, ...args]] : [WRK, args];
    const counts = join(dir, 'perf.csv');
    const countWakeups = options.countWakeups === true && (await perfCountsWakeups());
    if (countWakeups) [command, argv] = [PERF!, ['stat', '-a', '-x,', '-e', WAKEUP_EVENT, '-o', counts, '--', command, ...argv]];
    const stdout = await run(command, argv, (seconds + 30) * 1000);
    const match = /WRK_RESULT (\d+) (\d+) (\d+) (\d+) (\d+) (\d+)/.exec(stdout);
    if (!match) throw new Error(`wrk printed no result:\n${stdout}`);
    const [requests, durationUs, p50Us, p99Us, non2xx, errors] = match.slice(1).map(Number) as [number, number, number, number, number, number];
    const ms = (us: number): number => Math.round(us / 100) / 10;
    const wakeups = countWakeups ? Number(/^(\d+),/m.exec(readFileSync(counts, 'utf8'))?.[1]) : NaN;
    return {
      rps: requests / (durationUs / 1e6),
      p50: ms(p50Us),
      p99: ms(p99Us),
      non2xx,
      errors,
      requests,
      wakeupsPerRequest: Number.isFinite(wakeups) && requests > 0 ? wakeups / requests : undefined,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
