/**
 * Rows measured in turns: a bare server and svc run side by side, each gets an uncounted
 * warm-up, then they are loaded one after another round after round (bare, svc, bare, svc, …),
 * so that a slow spell of this shared machine falls on both of a pair rather than on one row.
 * A row gives the median of its rounds, and an svc row's ratio is the median of the rounds'
 * own ratios to the bare run just before them.
 */
import type { LoadResult } from './load.js';
import type { Row } from './report.js';

export const median = (values: readonly number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Each run's req/s: whole numbers, but two decimals under 100 (json-server's writes to a large file). */
const whole = (list: readonly LoadResult[]): string => list.map((r) => (r.rps < 100 ? r.rps.toFixed(2) : Math.round(r.rps).toLocaleString('en-US'))).join(', ');

/**
 * Runs every measurement of `measures` once per round, in the order given, for `rounds`
 * rounds; answers each measurement's results, one per round.
 */
export async function inTurns<K extends string, R>(rounds: number, measures: Record<K, () => Promise<R>>): Promise<Record<K, R[]>> {
  const names = Object.keys(measures) as K[];
  const results = Object.fromEntries(names.map((name) => [name, [] as R[]])) as Record<K, R[]>;
  for (let round = 0; round < rounds; round++) {
    for (const name of names) results[name].push(await measures[name]());
  }
  return results;
}

/** The bare server's row: the median of its rounds, each round's figure listed. */
export function referenceRow(group: string, name: string, runs: readonly LoadResult[], detail = ''): Row {
  return { group, name, value: median(runs.map((r) => r.rps)), unit: 'req/s', detail: `median of ${runs.length} rounds: ${whole(runs)}${detail}` };
}

/** Rounds held to the reference rounds just before them: each round's ratio, and what a row prints of them. */
function heldTo(runs: readonly LoadResult[], reference: readonly LoadResult[], digits: (ratio: number) => string) {
  const ratios = runs.map((r, i) => r.rps / reference[i]!.rps);
  const failures = runs.reduce((sum, r) => sum + r.non2xx + r.errors, 0);
  return {
    ratios,
    value: median(runs.map((r) => r.rps)),
    rounds: `rounds ${whole(runs)}; each ÷ its bare ${ratios.map(digits).join(', ')}`,
    latency: `p50 ${median(runs.map((r) => r.p50))} ms, p99 ${median(runs.map((r) => r.p99))} ms${failures ? `, ${failures} non-2xx or errors` : ''}`,
  };
}

/** svc's row: its rounds, each as a ratio of the reference round just before it, and the median of those ratios. */
export function pairedRow(group: string, name: string, runs: readonly LoadResult[], reference: readonly LoadResult[], detail = '', target?: number): Row {
  const held = heldTo(runs, reference, (r) => r.toFixed(2));
  const ratio = median(held.ratios);
  return {
    group,
    name,
    value: held.value,
    unit: 'req/s',
    detail: `${held.rounds}; ${held.latency}${detail}`,
    ratio,
    ratioLabel: '÷ bare, median',
    ...(target === undefined ? {} : { target: `≥ ${target}× bare`, ok: ratio >= target }),
  };
}

/**
 * Another server's row (json-server), measured in turns with the bare server instead of with
 * svc: a slow or heavy neighbour between svc's rounds would move svc's rows. Each of its rounds
 * is taken as a ratio to the bare round just before it, and svc's ratio to it is svc's median
 * ratio to bare over that median: bare is the yardstick both are held to, so that a slow spell
 * of the machine during either measurement falls out.
 */
export function yardstickRow(group: string, name: string, runs: readonly LoadResult[], reference: readonly LoadResult[], svc: Row, target?: number): Row {
  const held = heldTo(runs, reference, (r) => r.toPrecision(3));
  const toBare = median(held.ratios);
  const ratio = svc.ratio! / toBare;
  return {
    group,
    name,
    value: held.value,
    unit: 'req/s',
    detail: `${held.rounds} (median ${toBare.toPrecision(3)}); ${held.latency}`,
    ratio,
    ratioLabel: 'svc ÷ this, each ÷ bare',
    ...(target === undefined ? {} : { target: `≥ ${target}`, ok: ratio >= target }),
  };
}
