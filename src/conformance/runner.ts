/**
 * Runs the selected checks against the target, up to `concurrency` at a time (those that
 * conflict one after the other, schedule.ts), with the suite's own receiver; reports results in
 * catalogue order whatever order they finish in; and removes every record the run created at
 * the end — after failures, after --bail, and after an abort (Ctrl-C) alike.
 */
import { randomBytes } from 'node:crypto';
import { createClient, type Client } from '../client/index.js';
import { coverageOf, unknownCoverage, type Answer, type Coverage } from './coverage.js';
import { ClockLane } from './clock-lane.js';
import { removeAll, type CleanupResult } from './cleanup.js';
import { makeOwnTenants } from './own-tenants.js';
import { CheckFailure, CheckSkip, TargetUnreachable } from './expect.js';
import { startReceiver } from './receiver.js';
import { CheckScope, currentCheck, DEFAULT_REQUEST_BUDGET, inCheck, outsideChecks } from './scope.js';
import { holdClock, type ClockMove } from './run-clock.js';
import type { Selected } from './select.js';
import { DEFAULT_CONCURRENCY, inOrder, MAX_CONCURRENCY, schedule } from './schedule.js';
import { sharedBackoff, suiteFetch } from './transport.js';
import { areaOf, type Check, type CheckContext, type CheckResult, type Cleanup, type Profile, type Target } from './types.js';

export interface RunListener {
  onStart?(total: number, runId: string): void;
  /** When a check starts (checks start out of catalogue order when they run at once). */
  onCheckStart?(check: Check, index: number): void;
  /** Each result of a check that ran, in catalogue order (a result waits for those before it). */
  onCheckEnd?(result: CheckResult, index: number, total: number): void;
  onCleanup?(entry: CleanupResult): void;
  onBackoff?(url: string, waitMs: number): void;
  /** Each answer the run had, in the order they came, with the check whose request it answered (none for a value checks share). */
  onAnswer?(answer: Answer, checkId: string | undefined): void;
}

export type { CleanupResult } from './cleanup.js';
export type { Target } from './types.js';

/** How the reason of a check that a stopped run never reached begins (its outcome is `skipped`). */
export const NOT_RUN = 'not run';

export interface RunReport {
  runId: string;
  baseUrl: string;
  profile: Profile;
  /** The most checks the run let run at once (`--concurrency`). */
  concurrency: number;
  startedAt: string;
  durationMs: number;
  /** One per selected check, in catalogue order; checks a stopped run did not start are skipped, "not run: …". */
  results: CheckResult[];
  cleanup: CleanupResult[];
  /** Records the run made that the spec gives no way to remove (users). */
  kept: string[];
  interrupted: boolean;
  /** What the run did to the emulator clock (emulator profile): how far it moved, the speed it kept and put back. */
  clock?: ClockMove;
  /** The operations and statuses of the target's document the run exercised, and the event types it was sent (coverage.ts). */
  coverage: Coverage;
  /** With `ownTenants`: the ids of the tenants the run made and removed. */
  ownTenants?: string[];
}

export interface RunOptions {
  target: Target;
  selected: Selected[];
  profile: Profile;
  receiver: { host: string; port: number };
  /** Checks run at once at most (default DEFAULT_CONCURRENCY); 1 runs them one after another. */
  concurrency?: number;
  /** Stop starting checks at the first failure; the checks already running end, and cleanup runs. */
  bail?: boolean;
  signal?: AbortSignal;
  listener?: RunListener;
  runId?: string;
  /**
   * Work in two tenants of the run's own, made through the control plane and removed at the end
   * with everything in them (own-tenants.ts): the target's keys are not used. Needs svc's control plane.
   */
  ownTenants?: boolean;
}

/** Eight lower-case base-36 characters: names stay short and searchable in any case. */
export function newRunId(): string {
  return [...randomBytes(8)].map((byte) => (byte % 36).toString(36)).join('');
}

/** After Ctrl-C, how long a check's request in flight may take to answer before cleanup starts. */
const ABORT_GRACE_MS = 3_000;

/**
 * The run's clients. Those that back off on 429 share one back-off: when the target answers
 * any of them 429 with Retry-After, every check of the run waits that long before its next request.
 */
export function clientsFor(target: Target, listener?: RunListener, runId?: string, onAnswer?: (answer: Answer) => void) {
  const backoff = sharedBackoff();
  const answered = onAnswer === undefined ? {} : { onAnswer: (method: string, url: string, status: number) => onAnswer({ method, url, status }) };
  const fetch = suiteFetch({
    timeoutMs: target.timeoutMs,
    backoff,
    ...answered,
    ...(runId === undefined ? {} : { runId }),
    ...(target.fetch ? { inner: target.fetch } : {}),
    ...(listener?.onBackoff ? { onBackoff: (url: string, waitMs: number) => listener.onBackoff?.(url, waitMs) } : {}),
  });
  const unthrottledFetch = suiteFetch({
    timeoutMs: target.timeoutMs,
    backoff: false,
    ...answered,
    ...(runId === undefined ? {} : { runId }),
    ...(target.fetch ? { inner: target.fetch } : {}),
  });
  const make = (apiKey: string, using = fetch) =>
    createClient({ baseUrl: target.baseUrl, apiKey, fetch: using, timeoutMs: 0, headers: { 'user-agent': 'svc-conformance/1' } });
  return {
    client: make(target.apiKey),
    unthrottled: make(target.apiKey, unthrottledFetch),
    second: target.secondApiKey === undefined ? undefined : make(target.secondApiKey),
  };
}

function resultOf(check: Check, outcome: CheckResult['outcome'], started: number, notes: string[], reason?: string, requests = 0): CheckResult {
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
    requests,
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
  if (options.ownTenants !== true) return runIn(options, runId);
  // The tenants are removed whatever becomes of the run: after failures, Ctrl-C, or a run that broke.
  const own = await makeOwnTenants(options.target, runId);
  let removed: CleanupResult[] = [];
  const removeTenants = async (): Promise<void> => {
    // Last, after the run's own cleanup: removing a tenant removes everything in it.
    removed = await own.remove();
    for (const entry of removed) options.listener?.onCleanup?.(entry);
  };
  const report = await runIn({ ...options, target: own.target }, runId).catch(async (error: unknown) => {
    await removeTenants();
    throw error;
  });
  await removeTenants();
  return { ...report, cleanup: [...report.cleanup, ...removed], ownTenants: own.ids };
}

async function runIn(options: RunOptions, runId: string): Promise<RunReport> {
  const started = performance.now();
  const startedAt = new Date().toISOString();
  const { listener, signal } = options;
  const concurrency = Math.min(MAX_CONCURRENCY, Math.max(1, Math.floor(options.concurrency ?? DEFAULT_CONCURRENCY)));
  const answers: Answer[] = [];
  const { client, second, unthrottled } = clientsFor(options.target, listener, runId, (answer) => {
    answers.push(answer);
    listener?.onAnswer?.(answer, currentCheck()?.checkId);
  });
  const receiver = await startReceiver({ ...options.receiver, runId });
  // Real speed while the checks hold codes, challenges and sessions timed in real seconds (run-clock.ts).
  const heldClock =
    options.profile === 'emulator'
      ? await holdClock(client).catch(async (error: unknown) => {
          await receiver.close();
          throw error;
        })
      : undefined;
  const cleanups: Cleanup[] = [];
  const kept: string[] = [];
  const shared = new Map<string, Promise<unknown>>();
  const clockLane = new ClockLane(client);
  // Ctrl-C: a check waiting on the clock ends at once, and the clock is not moved again.
  signal?.addEventListener('abort', () => clockLane.close(), { once: true });
  let counter = 0;
  const total = options.selected.length;
  const results: Array<CheckResult | undefined> = Array.from({ length: total }, () => undefined);
  const abort = aborted(signal);
  let stopped: 'bail' | 'interrupted' | undefined;
  listener?.onStart?.(total, runId);

  // Results reach the listener in catalogue order: each waits for those before it.
  let told = 0;
  const tellReady = (): void => {
    for (; told < total && results[told] !== undefined; told += 1) listener?.onCheckEnd?.(results[told]!, told, total);
  };
  /** At the end: every result not told yet, passing over the checks that did not run. */
  const tellRest = (): void => {
    for (; told < total; told += 1) if (results[told] !== undefined) listener?.onCheckEnd?.(results[told]!, told, total);
  };

  const contextFor = (check: Check, notes: string[]): CheckContext => ({
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
    // One promise per key, made by the first check that asks: checks running at once share it.
    shared: <T>(key: string, make: () => Promise<T>) => {
      // Made outside the asking check: it counts against no check's budget and outlives the check that asked first.
      if (!shared.has(key)) shared.set(key, outsideChecks(make));
      return shared.get(key) as Promise<T>;
    },
    stepClock: (by, upTo) => clockLane.step(check.id, by, upTo),
    note: (text) => void notes.push(text),
  });

  /** Runs one check in a scope of its own (scope.ts): its requests are counted, and refused once it has ended. */
  const runCheck = async (check: Check, index: number): Promise<CheckResult> => {
    // A check that uses the clock is one the clock lane waits for before it moves the clock; it
    // starts once the clock stands still.
    const usesClock = check.uses?.clock !== undefined;
    if (usesClock) await clockLane.enter(check.id);
    listener?.onCheckStart?.(check, index);
    const checkStarted = performance.now();
    const notes: string[] = [];
    const scope = new CheckScope(check.id, check.budget ?? DEFAULT_REQUEST_BUDGET);
    const running = inCheck(scope, () => check.run(contextFor(check, notes)));
    const ended = (outcome: CheckResult['outcome'], reason?: string): CheckResult => {
      // A check that spent its budget fails for that, whatever it made of the refused call.
      if (scope.budgetHit && outcome !== 'skipped') return resultOf(check, 'failed', checkStarted, notes, `request budget ${scope.budget} hit`, scope.requests);
      return resultOf(check, outcome, checkStarted, notes, reason, scope.requests);
    };
    try {
      await Promise.race([running, abort]);
      return ended('passed');
    } catch (error) {
      if (signal?.aborted) {
        // A request the check already sent may still create a record: give it a moment to
        // answer, so the check registers that record for cleanup before cleanup runs.
        await Promise.race([running.catch(() => undefined), new Promise((resolve) => setTimeout(resolve, ABORT_GRACE_MS).unref())]);
        return ended('skipped', 'interrupted');
      }
      const { outcome, reason } = classify(error);
      return ended(outcome, reason);
    } finally {
      // Calls of the check still going (it failed while others ran beside) send nothing more,
      // and those in flight answer before the check's result is told and before cleanup runs.
      scope.stop('ended');
      running.catch(() => undefined);
      await scope.settled(options.target.timeoutMs);
      if (usesClock) clockLane.leave(check.id);
    }
  };

  const toRun: number[] = [];
  for (const [index, { check, skipReason }] of options.selected.entries()) {
    if (skipReason === undefined) toRun.push(index);
    else results[index] = resultOf(check, 'skipped', performance.now(), [], skipReason);
  }
  tellReady();
  const plan = concurrency === 1 ? inOrder(toRun.length) : schedule(toRun.map((index) => options.selected[index]!.check));
  try {
    await new Promise<void>((allDone, broke) => {
      let running = 0;
      const startMore = (): void => {
        if (stopped === undefined && signal?.aborted === true) stopped = 'interrupted';
        while (stopped === undefined && running < concurrency) {
          const position = plan.next();
          if (position === undefined) break;
          const index = toRun[position]!;
          const { check } = options.selected[index]!;
          running += 1;
          void runCheck(check, index)
            .then((result) => {
              running -= 1;
              if (signal?.aborted === true) stopped = 'interrupted';
              else if (options.bail === true && (result.outcome === 'failed' || result.outcome === 'error')) stopped ??= 'bail';
              results[index] = result;
              tellReady();
              plan.finish(position);
              startMore();
            })
            .catch(broke);
        }
        if (running === 0) allDone();
      };
      startMore();
    });
  } finally {
    await Promise.allSettled([...shared.values()]);
  }
  // Every selected check has one result, so the reports count the set the run started with.
  const interrupted = stopped === 'interrupted';
  const notRun = `${NOT_RUN}: ${interrupted ? 'the run was interrupted' : '--bail stopped the run at the first failure'}`;
  const missing = results.flatMap((result, index) => (result === undefined ? [index] : []));
  tellRest();
  for (const index of missing) results[index] = resultOf(options.selected[index]!.check, 'skipped', performance.now(), [], notRun);

  // The target's document and the clock are read while cleanup runs; the coverage counts cleanup's answers too.
  const document = readDocument(client);
  const removing = removeAll(cleanups, concurrency, listener?.onCleanup?.bind(listener));
  const [cleanup, clock] = await Promise.all([removing, heldClock?.release(removing)]);
  const coverage = coverageFor(await document, answers, receiver.eventTypes());
  await receiver.close();
  return {
    runId,
    baseUrl: options.target.baseUrl,
    profile: options.profile,
    concurrency,
    startedAt,
    durationMs: Math.round(performance.now() - started),
    results: results as CheckResult[],
    cleanup,
    kept: [...new Set(kept)],
    interrupted,
    coverage,
    ...(clock === undefined ? {} : { clock }),
  };
}

/** The target's own document (GET /openapi.json below the base URL), or why it could not be read. */
async function readDocument(client: Client): Promise<{ body: unknown } | { problem: string }> {
  try {
    const document = await client.request('GET', '/openapi.json');
    if (!document.ok) return { problem: `GET ${document.request.path} answered ${document.status}` };
    return { body: document.body };
  } catch (error) {
    return { problem: `its OpenAPI document could not be read: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/** The run's coverage of the target's own document. */
function coverageFor(document: { body: unknown } | { problem: string }, answers: readonly Answer[], events: string[]): Coverage {
  if ('problem' in document) return unknownCoverage(document.problem, events);
  try {
    return coverageOf(document.body, answers, events);
  } catch (error) {
    return unknownCoverage(`its OpenAPI document could not be read: ${error instanceof Error ? error.message : String(error)}`, events);
  }
}
