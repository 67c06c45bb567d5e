/** Load on loopback with autocannon: bounded in time, answers throughput and latency. */
import autocannon from 'autocannon';

export const CONNECTIONS = Number(process.env['BENCH_CONNECTIONS'] ?? 32);
export const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 5);

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

export interface LoadOptions {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** Makes each request's path (and body); called for every request. */
  next?: (index: number) => { path: string; body?: string };
  seconds?: number;
  connections?: number;
}

export async function load(options: LoadOptions): Promise<LoadResult> {
  if (!/^http:\/\/(127\.|localhost|\[::1\])/.test(options.url)) throw new Error(`load goes to loopback only, not ${options.url}`);
  let index = 0;
  const result = await autocannon({
    url: options.url,
    method: options.method ?? 'GET',
    connections: options.connections ?? CONNECTIONS,
    duration: options.seconds ?? SECONDS,
    headers: { 'content-type': 'application/json', ...options.headers },
    ...(options.next
      ? {
          requests: [
            {
              setupRequest: (request: autocannon.Request) => {
                const next = options.next!(index++);
                return { ...request, path: next.path, ...(next.body === undefined ? {} : { body: next.body }) };
              },
            },
          ],
        }
      : {}),
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}
