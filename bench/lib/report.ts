/** The benchmark's table: one row per measurement, with its ratio and target where it has one. */
import type { LoadResult } from './load.js';

export interface Row {
  group: string;
  name: string;
  value: number;
  unit: string;
  detail?: string;
  ratio?: number;
  ratioLabel?: string;
  target?: string;
  ok?: boolean;
}

/** A row for an svc measurement as a ratio of a reference throughput. */
export function compare(group: string, name: string, result: LoadResult, reference: number, target: string, check?: (ratio: number) => boolean): Row {
  const ratio = result.rps / reference;
  return {
    group,
    name,
    value: result.rps,
    unit: 'req/s',
    detail: `p50 ${result.p50} ms, p99 ${result.p99} ms${result.non2xx ? `, ${result.non2xx} non-2xx` : ''}`,
    ratio,
    ratioLabel: '÷ bare',
    ...(target ? { target } : {}),
    ...(check ? { ok: check(ratio) } : {}),
  };
}

function format(value: number): string {
  if (value >= 100) return Math.round(value).toLocaleString('en-US');
  if (value >= 10) return value.toFixed(1);
  return value.toFixed(2);
}

export function printTable(rows: Row[], meta: Record<string, unknown>): void {
  const lines = ['| group | measurement | value | ratio | target | |', '|---|---|---|---|---|---|'];
  for (const row of rows) {
    const ratio = row.ratio === undefined ? '' : `${row.ratio.toFixed(2)} (${row.ratioLabel ?? ''})`;
    const verdict = row.ok === undefined ? '' : row.ok ? 'ok' : 'MISS';
    lines.push(
      `| ${row.group} | ${row.name}${row.detail ? ` — ${row.detail}` : ''} | ${format(row.value)} ${row.unit} | ${ratio} | ${row.target ?? ''} | ${verdict} |`,
    );
  }
  process.stdout.write(`${lines.join('\n')}\n\n${JSON.stringify(meta)}\n`);
}
