/**
 * Runs the selected checks one after another against the target, with the suite's own
 * receiver, and removes every record the run created at the end — after failures, after
 * --bail, and after an abort (Ctrl-C) alike.
 */
import { randomBytes } from 'node:crypto';
import { createClient, type FetchLike } from '../client/index.js';
import { CheckFailure, CheckSkip, TargetUnreachable } from './expect.js';
import { startReceiver } from './receiver.js';
import type { Selected } from './select.js';
import { suiteFetch } from './transport.js';
import { areaOf, type Check, type CheckContext, type CheckResult, type Cleanup, type Profile } from './types.js';

export interface Target {
  baseUrl: string;
  apiKey: string;
  secondApiKey?: string | undefined;
  /** Real milliseconds one call may take. */
  timeoutMs: number;
  /** Replaces undici's fetch (tests run the suite in-process through app.request). */
  fetch?: FetchLike | undefined;
}

export interface RunListener {
  onStart?(total: number, runId: string): void;
  onCheckStart?(check: Check, index: number): void;
  onCheckEnd?(result: CheckResult, index: number, total: number): void;
  onCleanup?(entry: CleanupResult): void;
  onBackoff?(url: string, waitMs: number): void;
}

export interface CleanupResult {
  description: string;
  ok: boolean;
  error?: string;
}

/** How the reason of a check that a stopped run never reached begins (its outcome is `skipped`). */
export const NOT_RUN = 'not run';

export interface RunReport {
  runId: string;
  baseUrl: string;
  profile: Profile;
  startedAt: string;
  durationMs: number;
  /** One per selected check, in run order; checks a stopped run did not reach are skipped, "not run: …". */
  results: CheckResult[];
  cleanup: CleanupResult[];
  /** Records the run made that the spec gives no way to remove (users). */
  kept: string[];
  interrupted: boolean;
}

export interface RunOptions {
  target: Target;
  selected: Selected[];
  profile: Profile;
  receiver: { host: string; port: number };
  bail?: boolean;
  signal?: AbortSignal;
  listener?: RunListener;
  runId?: string;
}

/** Eight lower-case base-36 characters: names stay short and searchable in any case. */
export function newRunId(): string {
  return [...randomBytes(8)].map((byte) => (byte % 36).toString(36)).join('');
}

const CLEANUP_TIMEOUT_MS = 15_000;
/** After Ctrl-C, how long a check's request in flight may take to answer before cleanup starts. */
const ABORT_GRACE_MS = 3_000;

export function clientsFor(target: Target, listener?: RunListener) {
  const fetch = suiteFetch({ timeoutMs: target.timeoutMs, ...(target.fetch ? { inner: target.fetch } : {}), ...(listener?.onBackoff ? { onBackoff: listener.onBackoff } : {}) });
  const unthrottledFetch = suiteFetch({ timeoutMs: target.timeoutMs, backoff: false, ...(target.fetch ? { inner: target.fetch } : {}) });
  const make = (apiKey: string, using = fetch) => createClient({ baseUrl: target.baseUrl, apiKey, fetch: using, timeoutMs: 0, headers: { 'user-agent': 'svc-conformance/1' } });
  return {
    client: make(target.apiKey),
    unthrottled: make(target.apiKey, unthrottledFetch),
    second: target.secondApiKey === undefined ? undefined : make(target.secondApiKey),
  };
}

function resultOf(check: Check, outcome: CheckResult['outcome'], started: number, notes: string[], reason?: string): CheckResult {
  return {
    id: check.id,
    area: areaOf(check),
    tags: check.tags,
    description: check.description,
    spec: check.spec,
    profile: check.profile,
    outcome,
    ...(reason === undefined ? {} : { reason }),
    durationMs: Math.round(performance.now() - started),
    notes,
  };
}

function classify(error: unknown): { outcome: CheckResult['outcome']; reason: string } {
  if (error instanceof CheckFailure) return { outcome: 'failed', reason: error.message };
  if (error instanceof CheckSkip) return { outcome: 'skipped', reason: error.message };
  if (error instanceof TargetUnreachable) return { outcome: 'error', reason: `the target did not answer: ${error.message}` };
  // Anything else thrown while reading the target's answers (a body that is not JSON, say) is a break too.
  return { outcome: 'failed', reason: `unexpected: ${error instanceof Error ? error.message : String(error)}` };
}

/** One promise per run that rejects when the run is aborted (one listener, however many checks). */
function aborted(signal: AbortSignal | undefined): Promise<never> {
  const promise = new Promise<never>((_, reject) => {
    if (signal === undefined) return;
    if (signal.aborted) return reject(new Error('interrupted'));
    signal.addEventListener('abort', () => reject(new Error('interrupted')), { once: true });
  });
  promise.catch(() => undefined);
  return promise;
}

export async function runSuite(options: RunOptions): Promise<RunReport> {
  const runId = options.runId ?? newRunId();
  const started = performance.now();
  const startedAt = new Date().toISOString();
  const { listener, signal } = options;
  const { client, second, unthrottled } = clientsFor(options.target, listener);
  const receiver = await startReceiver({ ...options.receiver, runId });
  const cleanups: Cleanup[] = [];
  const kept: string[] = [];
  const shared = new Map<string, Promise<unknown>>();
  let counter = 0;
  const results: CheckResult[] = [];
  let interrupted = false;
  const total = options.selected.length;
  const abort = aborted(signal);
  listener?.onStart?.(total, runId);

  try {
    for (const [index, { check, skipReason }] of options.selected.entries()) {
      if (signal?.aborted) {
        interrupted = true;
        break;
      }
      const checkStarted = performance.now();
      listener?.onCheckStart?.(check, index);
      const notes: string[] = [];
      let result: CheckResult;
      if (skipReason !== undefined) {
        result = resultOf(check, 'skipped', checkStarted, notes, skipReason);
      } else {
        const ctx: CheckContext = {
          runId,
          profile: options.profile,
          client,
          second,
          unthrottled,
          apiKey: options.target.apiKey,
          receiver,
          timeoutMs: options.target.timeoutMs,
          name: (label) => `conf-${runId}-${label}-${(counter += 1)}`,
          email: (label) => `conf-${runId}-${label}-${(counter += 1)}@conformance.example`,
          keep: (description) => void kept.push(description),
          defer: (cleanup) => void cleanups.push(cleanup),
          shared: <T>(key: string, make: () => Promise<T>) => {
            if (!shared.has(key)) shared.set(key, make());
            return shared.get(key) as Promise<T>;
          },
          note: (text) => void notes.push(text),
        };
        const running = check.run(ctx);
        try {
          await Promise.race([running, abort]);
          result = resultOf(check, 'passed', checkStarted, notes);
        } catch (error) {
          if (signal?.aborted) {
            // A request the check already sent may still create a record: give it a moment to
            // answer, so the check registers that record for cleanup before cleanup runs.
            await Promise.race([running.catch(() => undefined), new Promise((resolve) => setTimeout(resolve, ABORT_GRACE_MS).unref())]);
            interrupted = true;
            results.push(resultOf(check, 'skipped', checkStarted, notes, 'interrupted'));
            listener?.onCheckEnd?.(results.at(-1)!, index, total);
            break;
          }
          const { outcome, reason } = classify(error);
          result = resultOf(check, outcome, checkStarted, notes, reason);
        }
      }
      results.push(result);
      listener?.onCheckEnd?.(result, index, total);
      if (options.bail === true && (result.outcome === 'failed' || result.outcome === 'error')) break;
    }
  } finally {
    await Promise.allSettled([...shared.values()]);
  }
  // Every selected check has one result, so the reports count the set the run started with.
  const notRun = `${NOT_RUN}: ${interrupted ? 'the run was interrupted' : '--bail stopped the run at the first failure'}`;
  for (const { check } of options.selected.slice(results.length)) results.push(resultOf(check, 'skipped', performance.now(), [], notRun));

  const cleanup: CleanupResult[] = [];
  for (const entry of cleanups.reverse()) {
    let outcome: CleanupResult;
    try {
      await Promise.race([entry.run(), new Promise((_, reject) => setTimeout(() => reject(new Error('timed out')), CLEANUP_TIMEOUT_MS).unref())]);
      outcome = { description: entry.description, ok: true };
    } catch (error) {
      outcome = { description: entry.description, ok: false, error: error instanceof Error ? error.message : String(error) };
    }
    cleanup.push(outcome);
    listener?.onCleanup?.(outcome);
  }
  await receiver.close();
  return {
    runId,
    baseUrl: options.target.baseUrl,
    profile: options.profile,
    startedAt,
    durationMs: Math.round(performance.now() - started),
    results,
    cleanup,
    kept: [...new Set(kept)],
    interrupted,
  };
}
