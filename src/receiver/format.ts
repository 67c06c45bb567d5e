/**
 * How `svc webhook listen` shows deliveries to a person: one line per delivery (time, event
 * type, event id, verdict, answer), detail lines for failures and forwards, and the
 * summary. Colour comes from chalk, which is off without a TTY and with NO_COLOR (cli/output.ts).
 */
import chalk from 'chalk';
import type { DeliveryReport, ReceiverSummary } from './types.js';

function clockTime(iso: string): string {
  const date = new Date(iso);
  const pad = (n: number, width = 2): string => String(n).padStart(width, '0');
  return `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}.${pad(date.getMilliseconds(), 3)}`;
}

function is2xx(status: number | null): boolean {
  return status !== null && status >= 200 && status <= 299;
}

function answerText(delivery: DeliveryReport): string {
  const { status, cause } = delivery.answer;
  const shown = status === null ? 'no answer (held until the sender gives up)' : String(status);
  const why: Record<typeof cause, string> = {
    checks_failed: '',
    duplicate: '',
    ok: '',
    respond: ' (--respond)',
    fail_first: ' (failed on purpose: --fail-first)',
    fail_rate: ' (failed on purpose: --fail-rate)',
    forward: " (your handler's status)",
    forward_failed: ' (forwarding failed)',
  };
  const text = `→ ${shown}${why[cause]}`;
  return is2xx(status) ? chalk.green(text) : status !== null && status >= 400 && cause === 'checks_failed' ? chalk.red(text) : chalk.yellow(text);
}

function verdictText(delivery: DeliveryReport): string {
  switch (delivery.verdict) {
    case 'valid':
      // A later attempt of an event that was not answered 2xx before: the sender's retry.
      return chalk.green(`✔ valid${delivery.attempt !== null && delivery.attempt > 1 ? ` (attempt ${delivery.attempt})` : ''}`);
    case 'duplicate':
      return chalk.yellow('↺ duplicate');
    case 'invalid':
      return chalk.red(`✖ invalid: ${delivery.reason ?? 'unknown'}`);
  }
}

/** The delivery's line and its detail lines, without a trailing newline. */
export function formatDelivery(delivery: DeliveryReport): string {
  const head = [
    chalk.dim(clockTime(delivery.receivedAt)),
    chalk.dim(`#${delivery.seq}`),
    (delivery.eventType ?? '-').padEnd(22),
    (delivery.eventId ?? '-').padEnd(26),
    verdictText(delivery),
    answerText(delivery),
  ].join('  ');
  const details: string[] = [];
  if (delivery.verdict === 'invalid') {
    for (const failure of delivery.failures) details.push(chalk.red(`    ✖ ${failure.check}: ${failure.reason}: ${failure.message}`));
    details.push(
      chalk.dim(
        `    ${delivery.method} ${delivery.path}, ${delivery.bodyBytes} bytes, ${delivery.ageSeconds === null ? 'no readable timestamp' : `signed ${delivery.ageSeconds} s ago`}`,
      ),
    );
  }
  if (delivery.firstSeen) {
    details.push(chalk.dim(`    already processed as #${delivery.firstSeen.seq} at ${clockTime(delivery.firstSeen.receivedAt)}; not processed again`));
  }
  if (delivery.forward) {
    const { url, status, error, durationMs, bodyPreview } = delivery.forward;
    const outcome = status === null ? chalk.red(`failed: ${error ?? 'no answer'}`) : (is2xx(status) ? chalk.green : chalk.yellow)(String(status));
    details.push(`    ↪ forwarded to ${url} → ${outcome} in ${durationMs} ms${bodyPreview ? chalk.dim(`  ${bodyPreview}`) : ''}`);
  }
  return [head, ...details].join('\n');
}

/** The summary printed on exit. */
export function formatSummary(summary: ReceiverSummary): string {
  const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
  const lines = [
    chalk.bold('Summary'),
    `  received     ${summary.received}`,
    `  valid        ${chalk.green(String(summary.valid))}${summary.failedOnPurpose > 0 ? `  (${summary.failedOnPurpose} failed on purpose)` : ''}`,
    `  invalid      ${summary.invalid > 0 ? chalk.red(String(summary.invalid)) : '0'}`,
  ];
  for (const [reason, count] of Object.entries(summary.invalidByReason).sort((a, b) => b[1] - a[1])) {
    lines.push(`    ${reason.padEnd(22)} ${count}`);
  }
  lines.push(`  duplicates   ${summary.duplicates}`);
  lines.push(`  forwarded    ${summary.forwarded}${summary.forwardFailed > 0 ? chalk.yellow(`  (${plural(summary.forwardFailed, 'failure')})`) : ''}`);
  const answers = Object.entries(summary.answers)
    .map(([status, count]) => `${status} ×${count}`)
    .join(', ');
  lines.push(`  answers      ${answers || 'none'}`);
  return lines.join('\n');
}
