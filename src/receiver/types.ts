/** What the receiver reports: one record per delivery (`--json`, `--log`) and the summary on exit. */
import type { CheckFailure, FailureReason } from './checks.js';

/** How a delivery that passes the checks is answered: a status, or no answer at all. */
export type Respond = { kind: 'status'; status: number } | { kind: 'timeout' };

/** Why a delivery got the answer it got. */
export type AnswerCause = 'checks_failed' | 'duplicate' | 'fail_first' | 'fail_rate' | 'respond' | 'forward' | 'forward_failed' | 'ok';

export interface Answer {
  /** null when the receiver held the connection and never answered (`--respond timeout`). */
  status: number | null;
  cause: AnswerCause;
}

export interface ForwardResult {
  url: string;
  /** The handler's status; null when it could not be reached or did not answer in time. */
  status: number | null;
  error: string | null;
  durationMs: number;
  /** The start of the handler's answer, for the screen. */
  bodyPreview: string;
}

export type Verdict = 'valid' | 'invalid' | 'duplicate';

/** One delivery as the receiver saw and answered it. */
export interface DeliveryReport {
  kind: 'delivery';
  /** 1, 2, 3 … in order of arrival. */
  seq: number;
  receivedAt: string;
  method: string;
  path: string;
  eventId: string | null;
  eventType: string | null;
  /** X-Service-Timestamp, Unix seconds, when readable. */
  signedAt: number | null;
  /** Seconds between signing and arrival, when the timestamp is readable. */
  ageSeconds: number | null;
  verdict: Verdict;
  /** The first failing check's reason; null when every check passed. */
  reason: FailureReason | null;
  failures: CheckFailure[];
  /** How many deliveries of this event id passed the checks so far, this one included (2 = the first retry); null when invalid. */
  attempt: number | null;
  /** For a duplicate: the delivery that processed this event first. */
  firstSeen: { seq: number; receivedAt: string } | null;
  answer: Answer;
  forward: ForwardResult | null;
  bodyBytes: number;
}

export interface ReceiverSummary {
  kind: 'summary';
  received: number;
  valid: number;
  invalid: number;
  invalidByReason: Partial<Record<FailureReason, number>>;
  duplicates: number;
  /** Valid deliveries failed on purpose (--fail-first, --fail-rate, a non-2xx or timeout --respond). */
  failedOnPurpose: number;
  forwarded: number;
  forwardFailed: number;
  /** Answers sent, by status; `held` counts deliveries never answered. */
  answers: Record<string, number>;
}
