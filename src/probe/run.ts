/**
 * A run of `svc webhook probe`: every selected case against one handler URL, a few at a time,
 * each graded as its deliveries come back. One case (timing) is given the spec's whole 30 s;
 * every other delivery gets a shorter budget, and the run has a deadline of its own, so a
 * handler that hangs on everything still ends the run within a minute.
 */
import { DEFAULT_DELIVERY_TIMEOUT_MS } from '../webhooks/sender.js';
import { PROBE_CASES, PROBE_GROUPS } from './cases.js';
import { probeAgent, sendDelivery } from './send.js';
import type { Answer, BuildContext, CaseResult, DeliveryResult, ProbeCase, ProbeDelivery, ProbeReport, TimingSummary } from './types.js';

/** The answer limit of the timing case: the spec's 30 s, as the emulator's sender uses. */
export const SPEC_TIMEOUT_MS = DEFAULT_DELIVERY_TIMEOUT_MS;
/** The limit of every other delivery: long for a handler that answers first and works after, short enough to keep a run under a minute. */
export const CASE_TIMEOUT_MS = 10_000;
/** Cases in flight at once. */
export const PROBE_CONCURRENCY = 10;
/** No run lasts longer than this, whatever the handler does. */
export const RUN_DEADLINE_MS = 55_000;

export interface ProbeOptions {
  url: string;
  secret: string;
  apiVersion: string;
  /** The timing case's limit; default SPEC_TIMEOUT_MS. A smaller value (tests) also bounds every other case. */
  timeoutMs?: number;
  /** Case ids or groups to run (empty: all). */
  only?: readonly string[];
  skip?: readonly string[];
  /** Told each result as it is graded. */
  onResult?: (result: CaseResult) => void;
}

/** The selectors that name neither a case nor a group. */
export function unknownSelectors(selectors: readonly string[]): string[] {
  return selectors.filter((s) => !PROBE_GROUPS.includes(s) && !PROBE_CASES.some((c) => c.id === s));
}

function matches(probeCase: ProbeCase, selectors: readonly string[]): boolean {
  return selectors.some((s) => probeCase.id === s || probeCase.id.startsWith(`${s}.`));
}

/** The cases --only and --skip leave, in report order. */
export function selectCases(only: readonly string[] = [], skip: readonly string[] = []): ProbeCase[] {
  return PROBE_CASES.filter((c) => (only.length === 0 || matches(c, only)) && !matches(c, skip));
}

const is2xx = (answer: Answer): boolean => answer.status !== null && answer.status >= 200 && answer.status < 300;

/** Why an answer is not the 2xx an accepted delivery needs, in words. */
function notAccepted(answer: Answer, timeoutMs: number, fullTimeout: boolean): string {
  if (answer.status === null) {
    if (answer.failure === 'timeout' && !fullTimeout)
      return `${answer.error} (the probe gives each case ${timeoutMs / 1000} s; the timing case waits the spec's whole limit)`;
    return answer.error ?? 'no answer';
  }
  if (answer.status >= 300 && answer.status < 400) {
    return `redirect ${answer.status}${answer.location === null ? '' : ` to ${answer.location}`}: only a 2xx counts and a sender does not follow redirects; give the final URL (docs/listen.md#probe-redirect)`;
  }
  return `answered ${answer.status}, not 2xx`;
}

/** Grades one delivery's answer; null when it is what the case wants. */
function verdict(probeCase: ProbeCase, answer: Answer, timeoutMs: number): string | null {
  if (probeCase.expect === 'accept') return is2xx(answer) ? null : notAccepted(answer, timeoutMs, probeCase.fullTimeout === true);
  if (answer.status === null) return `${answer.error ?? 'no answer'}: a refusal is an answer that is not 2xx; none came`;
  return is2xx(answer) ? `answered ${answer.status}: this delivery must be refused` : null;
}

async function runCase(
  probeCase: ProbeCase,
  context: BuildContext,
  send: (delivery: ProbeDelivery, timeoutMs: number) => Promise<Answer>,
  timeoutMs: number,
): Promise<CaseResult> {
  const started = performance.now();
  const deliveries: DeliveryResult[] = [];
  let reason: string | null = null;
  for (const [index, delivery] of probeCase.build(context).entries()) {
    const answer = await send(delivery, timeoutMs);
    deliveries.push({ ...delivery, answer });
    const wrong = verdict(probeCase, answer, timeoutMs);
    if (wrong !== null) {
      reason = index === 0 ? wrong : `delivery ${index + 1} (${delivery.sent}): ${wrong}`;
      break;
    }
  }
  return {
    id: probeCase.id,
    expect: probeCase.expect,
    severity: probeCase.severity,
    outcome: reason === null ? 'passed' : probeCase.severity === 'warning' ? 'warned' : 'failed',
    summary: probeCase.summary,
    reason,
    why: probeCase.why,
    fix: probeCase.fix,
    docs: probeCase.docs,
    timeoutMs,
    durationMs: Math.round(performance.now() - started),
    deliveries,
  };
}

/** The middle of the sorted values (the mean of the two middle ones for an even count). */
function median(sorted: number[]): number | null {
  if (sorted.length === 0) return null;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : Math.round(((sorted[mid - 1]! + sorted[mid]!) / 2) * 10) / 10;
}

/** The median and slowest of the 2xx answers to deliveries meant to be accepted. */
export function timingOf(results: readonly CaseResult[]): TimingSummary {
  const answered = results
    .filter((r) => r.expect === 'accept')
    .flatMap((r) => r.deliveries.filter((d) => is2xx(d.answer)).map((d) => ({ id: r.id, ms: d.answer.durationMs })));
  const slowest = answered.reduce<{ id: string; ms: number } | null>((top, a) => (top === null || a.ms > top.ms ? a : top), null);
  return {
    answered: answered.length,
    medianMs: median(answered.map((a) => a.ms).sort((a, b) => a - b)),
    slowestMs: slowest?.ms ?? null,
    slowestCase: slowest?.id ?? null,
  };
}

/** Why no delivery reached the handler, when none did; null otherwise. */
function unreachableReason(results: readonly CaseResult[]): string | null {
  const answers = results.flatMap((r) => r.deliveries.map((d) => d.answer));
  if (answers.length === 0 || !answers.every((a) => a.failure === 'connection')) return null;
  return answers[0]!.error;
}

/** Runs the selected cases against `options.url`. */
export async function runProbe(options: ProbeOptions): Promise<ProbeReport> {
  const timeoutMs = options.timeoutMs ?? SPEC_TIMEOUT_MS;
  const caseTimeoutMs = Math.min(CASE_TIMEOUT_MS, timeoutMs);
  const cases = selectCases(options.only, options.skip);
  // The timing case goes first, so its long wait overlaps all the others.
  const queue = [...cases.filter((c) => c.fullTimeout === true), ...cases.filter((c) => c.fullTimeout !== true)];
  const startedAt = new Date();
  const started = performance.now();
  const context: BuildContext = { secret: options.secret, apiVersion: options.apiVersion, nowSeconds: Math.floor(startedAt.getTime() / 1000) };
  const stop = new AbortController();
  const deadlineTimer = setTimeout(() => stop.abort(new DOMException("the run's time is up", 'TimeoutError')), RUN_DEADLINE_MS);
  const deadline = stop.signal;
  const agent = await probeAgent(PROBE_CONCURRENCY, caseTimeoutMs);
  const results = new Map<string, CaseResult>();
  const worker = async (): Promise<void> => {
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
      const limit = next.fullTimeout === true ? timeoutMs : caseTimeoutMs;
      const result = await runCase(next, context, (delivery, ms) => sendDelivery(agent, options.url, delivery, ms, deadline), limit);
      results.set(result.id, result);
      options.onResult?.(result);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(PROBE_CONCURRENCY, queue.length) }, worker));
  } finally {
    clearTimeout(deadlineTimer);
    await agent.destroy();
  }
  const ordered = cases.map((c) => results.get(c.id)!);
  const count = (outcome: CaseResult['outcome']): number => ordered.filter((r) => r.outcome === outcome).length;
  const unreachable = unreachableReason(ordered);
  const failed = count('failed');
  return {
    url: options.url,
    startedAt: startedAt.toISOString(),
    durationMs: Math.round(performance.now() - started),
    timeoutMs,
    caseTimeoutMs,
    concurrency: PROBE_CONCURRENCY,
    results: ordered,
    timing: timingOf(ordered),
    counts: { total: ordered.length, passed: count('passed'), failed, warned: count('warned') },
    unreachable,
    exitCode: unreachable !== null ? 2 : failed > 0 ? 1 : 0,
  };
}
