/**
 * Failure on purpose, to exercise a sender's retries: `--fail-first N` fails the first N
 * deliveries that pass the checks, `--fail-rate p` fails each later one with probability p
 * (from a seedable generator, so a run can be repeated), `--respond` answers the rest.
 */
import type { AnswerCause, Respond } from './types.js';

export interface FailurePolicyOptions {
  failFirst?: number;
  failRate?: number;
  /** How an injected failure answers; default 500. */
  failWith?: Respond;
  /** Seed of the --fail-rate generator; default a random one. */
  seed?: number;
}

export interface FailureDecision {
  respond: Respond;
  cause: Extract<AnswerCause, 'fail_first' | 'fail_rate'>;
}

export const DEFAULT_FAILURE: Respond = { kind: 'status', status: 500 };

/** mulberry32: a small, well-mixed 32-bit generator; the same seed gives the same run. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Answers, per processed delivery, whether to fail it on purpose. Call once per delivery, in order. */
export function createFailurePolicy(options: FailurePolicyOptions): () => FailureDecision | null {
  let failFirstLeft = options.failFirst ?? 0;
  const rate = options.failRate ?? 0;
  const random = seededRandom(options.seed ?? Math.floor(Math.random() * 2 ** 32));
  const failWith = options.failWith ?? DEFAULT_FAILURE;
  return () => {
    if (failFirstLeft > 0) {
      failFirstLeft -= 1;
      return { respond: failWith, cause: 'fail_first' };
    }
    if (rate > 0 && random() < rate) return { respond: failWith, cause: 'fail_rate' };
    return null;
  };
}

/** Parses `--respond`/`--fail-with`: a status from 200 to 599, or `timeout`. Undefined when it is neither. */
export function parseRespond(text: string): Respond | undefined {
  if (text === 'timeout') return { kind: 'timeout' };
  if (!/^\d{3}$/.test(text)) return undefined;
  const status = Number(text);
  return status >= 200 && status <= 599 ? { kind: 'status', status } : undefined;
}
