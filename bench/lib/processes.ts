/** Server processes under test: spawned (pinned to one core when taskset exists), awaited, stopped. */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { availableParallelism } from 'node:os';

export const TASKSET = ['/usr/bin/taskset', '/bin/taskset'].find((path) => existsSync(path));
/** The server gets core 0; the load generator (this process, or wrk) gets the rest. */
export const SERVER_CORE = '0';
export const LOAD_CORES = availableParallelism() > 1 ? `1-${availableParallelism() - 1}` : '0';
export const PINNED = TASKSET !== undefined;
/** Clock ticks per second of /proc/<pid>/stat's times: 100 on every Linux svc runs on (USER_HZ). */
const CLOCK_TICKS = 100;

export interface ServerProcess {
  readonly url: string;
  readonly child: ChildProcess;
  /** Real milliseconds from spawn to the first 200 of `readyPath`. */
  readonly startMs: number;
  rssMb(): number;
  /** CPU seconds (user + system) the server has used so far, from /proc; undefined where there is no /proc. */
  cpuSeconds(): number | undefined;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** Waits until `url` answers 200 (with `headers`), polling, for at most `timeoutMs`; fails at once if `child` exits. */
export async function waitUntilUp(url: string, child: ChildProcess, timeoutMs: number, headers: Record<string, string> = {}): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exited = child.exitCode !== null;
  const onExit = (): void => {
    exited = true;
  };
  // Taken off again: the PostgreSQL rows wait on the same processes round after round.
  child.once('exit', onExit);
  try {
    while (Date.now() < deadline) {
      if (exited) throw new Error(`the server exited before answering ${url}`);
      try {
        const response = await fetch(url, { headers });
        await response.arrayBuffer();
        if (response.ok) return;
      } catch {
        /* not listening yet */
      }
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    throw new Error(`no answer from ${url} within ${timeoutMs} ms`);
  } finally {
    child.off('exit', onExit);
  }
}

/** Spawns `command args` and waits for `origin + readyPath` to answer 200. */
export async function startServer(options: {
  command: string;
  args: string[];
  origin: string;
  readyPath: string;
  /** Added to this process's environment; a name given as undefined is left out. */
  env?: Record<string, string | undefined>;
  cwd?: string;
  timeoutMs?: number;
  /** The cores it may run on (taskset -c); default SERVER_CORE. */
  cores?: string;
}): Promise<ServerProcess> {
  const [command, args] = TASKSET ? [TASKSET, ['-c', options.cores ?? SERVER_CORE, options.command, ...options.args]] : [options.command, options.args];
  const started = performance.now();
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: { ...process.env, NO_COLOR: '1', ...options.env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  try {
    await waitUntilUp(`${options.origin}${options.readyPath}`, child, options.timeoutMs ?? 60_000);
  } catch (error) {
    child.kill('SIGKILL');
    throw new Error(`${(error as Error).message}\n${stderr}`);
  }
  const startMs = performance.now() - started;
  return {
    url: options.origin,
    child,
    startMs,
    rssMb() {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
      return kb / 1024;
    },
    cpuSeconds() {
      try {
        // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
        const stat = readFileSync(`/proc/${child.pid}/stat`, 'latin1');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
      } catch {
        return undefined;
      }
    },
    stop() {
      return new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        child.kill('SIGTERM');
      });
    },
  };
}
