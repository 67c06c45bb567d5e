/** Durations as the API and the CLI write them (D2): `90s`, `15m`, `2h`, `7d`, `500ms`. */

const UNIT_MS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
const DURATION_PATTERN = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)$/;

/** Parses a duration string to milliseconds; undefined when it is not one. */
export function parseDuration(text: string): number | undefined {
  const match = DURATION_PATTERN.exec(text.trim());
  if (!match) return undefined;
  const amount = Number(match[1]);
  const unit = match[2] as keyof typeof UNIT_MS;
  const ms = Math.round(amount * UNIT_MS[unit]);
  return Number.isFinite(ms) ? ms : undefined;
}

/** Like parseDuration, but throws a readable error for the CLI. */
export function requireDuration(text: string, what = 'duration'): number {
  const ms = parseDuration(text);
  if (ms === undefined) throw new Error(`${what} "${text}" is not a duration such as 90s, 15m, 2h or 7d`);
  return ms;
}

/** The shortest exact rendering of a duration: 60000 → `1m`, 90000 → `90s`. */
export function formatDuration(ms: number): string {
  for (const unit of ['d', 'h', 'm', 's'] as const) {
    if (ms !== 0 && ms % UNIT_MS[unit] === 0) return `${ms / UNIT_MS[unit]}${unit}`;
  }
  return `${ms}ms`;
}
