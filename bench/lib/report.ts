/** The benchmark's table: one row per measurement, with its ratio and target where it has one. */
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
