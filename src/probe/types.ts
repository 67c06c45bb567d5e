/**
 * The shapes of `svc webhook probe` (docs/listen.md#test-your-own-handler): a case of the
 * catalogue, the deliveries it sends, what came back, and the report of a run.
 */

/** What a case wants of the handler: a 2xx answer, or any other. */
export type Expectation = 'accept' | 'refuse';

/** A required case decides the exit code; a warning is shown and never fails the run. */
export type Severity = 'required' | 'warning';

export type Outcome = 'passed' | 'failed' | 'warned';

/** One request the probe sends: its headers and its exact body bytes. */
export interface ProbeDelivery {
  /** What it is, in words ("user.created, signed over the raw body"). */
  sent: string;
  eventId: string;
  eventType: string;
  headers: Record<string, string>;
  body: string;
}

/** What a case's deliveries are made from. */
export interface BuildContext {
  secret: string;
  /** The `api_version` every payload carries. */
  apiVersion: string;
  /** Wall-clock Unix seconds when the run began: the signing time of a fresh delivery. */
  nowSeconds: number;
}

export interface ProbeCase {
  /** Stable, for --only and --skip: `refuse.unsigned`. */
  id: string;
  expect: Expectation;
  severity: Severity;
  /** What the case sends, in one line. */
  summary: string;
  /** What goes wrong in production when the handler fails it. */
  why: string;
  /** How to fix the handler, in one or two sentences. */
  fix: string;
  /** Where docs/listen.md explains it. */
  docs: string;
  /** The case proves the spec's whole answer limit; every other case runs with the shorter per-case budget. */
  fullTimeout?: boolean;
  /** The deliveries, sent one after another; the first that is not answered as expected ends the case. */
  build(context: BuildContext): ProbeDelivery[];
}

/** What one delivery got back. */
export interface Answer {
  /** The HTTP status, or null when none came (timeout, connection error). */
  status: number | null;
  /** Why no status came, or null. */
  error: string | null;
  /** `connection`: the handler could not be reached; `timeout`: it did not answer in time; `protocol`: no readable HTTP answer came. */
  failure: 'connection' | 'timeout' | 'protocol' | null;
  /** The Location header of a redirect. */
  location: string | null;
  /** The start of the answer's body, for the report. */
  text: string;
  durationMs: number;
}

export interface DeliveryResult {
  sent: string;
  eventId: string;
  eventType: string;
  headers: Record<string, string>;
  /** The body as sent (for the JSON report: run it again with curl). */
  body: string;
  answer: Answer;
}

export interface CaseResult {
  id: string;
  expect: Expectation;
  severity: Severity;
  outcome: Outcome;
  summary: string;
  /** Why it failed or warned; null when it passed. */
  reason: string | null;
  why: string;
  fix: string;
  docs: string;
  /** The time the case allowed each delivery, ms. */
  timeoutMs: number;
  durationMs: number;
  deliveries: DeliveryResult[];
}

export interface TimingSummary {
  /** Deliveries the handler answered 2xx and was meant to, counted for the figures below. */
  answered: number;
  medianMs: number | null;
  slowestMs: number | null;
  /** The case of the slowest answer. */
  slowestCase: string | null;
}

export interface ProbeReport {
  url: string;
  startedAt: string;
  durationMs: number;
  /** The answer limit the timing case held the handler to (the spec's 30 s unless --timeout). */
  timeoutMs: number;
  /** The limit of every other case. */
  caseTimeoutMs: number;
  concurrency: number;
  results: CaseResult[];
  timing: TimingSummary;
  counts: { total: number; passed: number; failed: number; warned: number };
  /** Set when no delivery reached the handler at all: the reason (exit 2). */
  unreachable: string | null;
  exitCode: 0 | 1 | 2;
}
