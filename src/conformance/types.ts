/**
 * The shapes of the conformance suite (D14): a check is data — a stable id, tags that
 * begin with its area, one line of description, the spec line it enforces, the profile it
 * belongs to, whether it creates records — and a `run(ctx)` that throws a CheckFailure
 * naming the broken rule, or a CheckSkip when the target cannot be checked this way.
 */
import type { ApiResult, Client, FetchLike } from '../client/index.js';
import type { Receiver } from './receiver.js';

/** `spec`: only what docs/service-api.md states. `emulator`: also every decision of docs/design.md and the control plane. */
export type Profile = 'spec' | 'emulator';

export interface Check {
  /** Stable, dotted: `<area>.<rule>`. */
  id: string;
  /** The first tag is the area (a spec area name such as `apps`, `api-keys`, `webhooks`). */
  tags: string[];
  description: string;
  /** Where the rule comes from: `part 5.3`, `D7`, … */
  spec: string;
  profile: Profile;
  /** Whether the check creates records (so `--read-only` leaves it out). */
  creates: boolean;
  /** Waits on real time (minutes): runs only with `--include-slow`. */
  slow?: boolean;
  /** Needs a key of a second tenant (`--second-api-key`). */
  needsSecondKey?: boolean;
  /** State the check shares with the others of a run, when it must not run beside some of them. */
  uses?: Uses;
  /**
   * Takes many round trips one after another (seconds against a far target): among the checks
   * free to start, it starts before the short ones, so that it does not hold up the end of a run.
   */
  long?: boolean;
  /**
   * The most requests the check may make (default DEFAULT_REQUEST_BUDGET, scope.ts): past it the
   * check is stopped and fails with "request budget N hit".
   */
  budget?: number;
  /**
   * The write operations (operationIds of the API document: `createApp`, `deleteWebhook`, …)
   * whose effect the check confirms through other operations: what a create or update sent,
   * read back by GET and in the listing; a delete followed by a GET and a listing without it;
   * a count or total that moves by exactly what the run did (docs/conformance.md#every-effect-read-back).
   */
  readsBack?: string[];
  run(ctx: CheckContext): Promise<void>;
}

/**
 * What a check does to state that every check of a run shares, when that keeps it apart from
 * others. Checks run at once (up to `--concurrency`) unless two conflict; two that conflict run
 * one after the other, in a fixed order (schedule.ts), so results do not depend on which finished first.
 *
 * - `clock: 'moves'` advances the emulator clock (D10) far enough to end or upset what
 *   others hold on it: it runs apart from every other check that uses the clock. `clock: 'holds'`
 *   holds something the clock ends or judges (a session, a challenge, a TOTP code, dated data,
 *   a retry due in real time), or moves it by no more than a second; such checks run beside
 *   each other, never beside one that moves the clock.
 * - `clock: 'steps'` moves the emulator clock only through `ctx.stepClock`, which wakes it once
 *   the clock has moved so far, moved when every check that uses the clock waits (clock-lane.ts):
 *   it runs beside the checks that hold the clock and the others that step it, never beside one
 *   that moves it.
 * - `lists: 'walks'` reads a whole list page by page and needs it not to grow meanwhile: it runs
 *   apart from every check that creates records (`creates`), and beside the other walks, which
 *   only read.
 * - `floods` keeps many requests in flight with a key of its own: it runs after every other
 *   check, beside those that move the clock alone (each sends one request at a time, and times
 *   nothing by the real clock that a busy target would upset).
 */
export interface Uses {
  clock?: 'moves' | 'steps' | 'holds';
  lists?: 'walks';
  floods?: true;
  /** Why the check is kept apart, in a few words. */
  why: string;
}

/**
 * When a removal runs at the end of a run: `first` those that act through another record the
 * run removes (a delegated session is revoked with its user's session token), then `records`
 * (the default), then `webhooks` (after every removal that announces itself, such as a key's
 * `api_key.revoked`, so no delivery of the run is left waiting on a webhook it deletes) and,
 * beside them, `tenant` (the settings the run's sessions were made under, and the tenant's
 * name: every session is over by then). A stage starts when the one before has ended, the last
 * two together; removals of the first three run at once (up to the run's concurrency), the
 * tenant's are put back one at a time, last first.
 */
export type CleanupStage = 'first' | 'records' | 'webhooks' | 'tenant';

/** Something the run created, and how to remove it at the end. */
export interface Cleanup {
  description: string;
  run(): Promise<void>;
  stage?: CleanupStage;
}

export interface CheckContext {
  /** Short random id that every name the run creates carries. */
  readonly runId: string;
  /** The effective profile of this run. */
  readonly profile: Profile;
  /** The target, with the primary key; backs off on 429 per Retry-After. */
  readonly client: Client;
  /** The target with the primary key but no 429 back-off, for the rate-limit checks. */
  readonly unthrottled: Client;
  /** The same target with the second tenant's key, when given. */
  readonly second: Client | undefined;
  /** The primary key, for checks that must send it by hand. */
  readonly apiKey: string;
  /** The suite's own webhook receiver. */
  readonly receiver: Receiver;
  /** Real milliseconds a single call may take. */
  readonly timeoutMs: number;
  /** A unique name carrying the run id: `conf-<runId>-<label>-<n>`. */
  name(label: string): string;
  /** A unique e-mail address carrying the run id. */
  email(label: string): string;
  /** Records something the run made that it cannot remove (a user: the spec has no delete), for the report. */
  keep(description: string): void;
  /** Registers removal of a record, run at the end of the run in its stage (CleanupStage). */
  defer(cleanup: Cleanup): void;
  /** A value shared by the checks of a run (a webhook wired to the receiver, say), made once. */
  shared<T>(key: string, make: () => Promise<T>): Promise<T>;
  /**
   * Moves the emulator clock by `by` (a duration, `30s`) from where it is now, as POST
   * /_emulator/clock/advance does, and answers that call's answer: for a check whose uses say
   * `clock: 'steps'`, once every other check that uses the clock waits too (clock-lane.ts).
   * `upTo` (no less than `by`) is how far it may move meanwhile, when more than `by` shows the
   * check the same: the lane then wakes it with other checks whose steps that move also covers.
   */
  stepClock(by: string, upTo?: string): Promise<ApiResult<unknown>>;
  /** A line kept with the check's result (what was seen, for the report). */
  note(text: string): void;
}

/** The deployment a run checks: its base URL and keys. */
export interface Target {
  baseUrl: string;
  apiKey: string;
  secondApiKey?: string | undefined;
  /** Real milliseconds one call may take. */
  timeoutMs: number;
  /** Replaces undici's fetch (tests run the suite in-process through app.request). */
  fetch?: FetchLike | undefined;
}

export type Outcome = 'passed' | 'failed' | 'skipped' | 'expected' | 'error';

export interface CheckResult {
  id: string;
  area: string;
  tags: string[];
  description: string;
  spec: string;
  profile: Profile;
  outcome: Outcome;
  /** Why it failed, was skipped or errored; for `expected`, the baseline's reason too. */
  reason?: string;
  durationMs: number;
  /** Requests the check made to the target (its control plane included). */
  requests: number;
  notes: string[];
}

/** The area of a check: its first tag. */
export function areaOf(check: Pick<Check, 'tags'>): string {
  return check.tags[0] ?? 'other';
}
