/** The running tally behind the summary `svc webhook listen` prints on exit. */
import type { DeliveryReport, ReceiverSummary } from './types.js';

export function emptySummary(): ReceiverSummary {
  return {
    kind: 'summary',
    received: 0,
    valid: 0,
    invalid: 0,
    invalidByReason: {},
    duplicates: 0,
    failedOnPurpose: 0,
    forwarded: 0,
    forwardFailed: 0,
    answers: {},
  };
}

const ON_PURPOSE = new Set(['fail_first', 'fail_rate', 'respond']);

/** Adds one delivery to the summary (mutates it). */
export function tally(summary: ReceiverSummary, delivery: DeliveryReport): void {
  summary.received += 1;
  if (delivery.verdict === 'valid') summary.valid += 1;
  if (delivery.verdict === 'duplicate') summary.duplicates += 1;
  if (delivery.verdict === 'invalid' && delivery.reason !== null) {
    summary.invalid += 1;
    summary.invalidByReason[delivery.reason] = (summary.invalidByReason[delivery.reason] ?? 0) + 1;
  }
  const { status, cause } = delivery.answer;
  if (ON_PURPOSE.has(cause) && (status === null || status < 200 || status > 299)) summary.failedOnPurpose += 1;
  if (delivery.forward) {
    summary.forwarded += 1;
    const ok = delivery.forward.status !== null && delivery.forward.status >= 200 && delivery.forward.status <= 299;
    if (!ok) summary.forwardFailed += 1;
  }
  const key = status === null ? 'held' : String(status);
  summary.answers[key] = (summary.answers[key] ?? 0) + 1;
}
