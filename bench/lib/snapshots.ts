/**
 * Snapshot rows (docs/control-plane.md#snapshots): on a copy of the store of 10k users, in
 * process, the time to save a snapshot and to restore it (store and clock back, retries planned
 * again) as `POST /_emulator/snapshots/NAME/restore` spends it, without the HTTP around it.
 */
import { rmSync } from 'node:fs';
import { createRuntime } from '../../src/emulator.js';
import { restoreSnapshot, saveSnapshot } from '../../src/services/snapshots.js';
import { svcDataDir, workingCopy } from './data.js';
import { median } from './paired.js';
import type { Row } from './report.js';

/** Restores timed; the first two warm up and are left out. */
const RESTORES = Number(process.env['BENCH_SNAPSHOT_RESTORES'] ?? 9);
const USERS = 10_000;
/** The target of a restore at 10k users. */
const RESTORE_TARGET_MS = 50;

export async function snapshotRows(log: (line: string) => void): Promise<Row[]> {
  const dir = workingCopy(await svcDataDir(USERS, log));
  const rt = await createRuntime({ dataDir: dir });
  try {
    log(`snapshots: saving and restoring ${RESTORES} times at ${USERS / 1000}k users…`);
    const saves: number[] = [];
    const restores: number[] = [];
    for (let i = 0; i < RESTORES; i++) {
      let start = performance.now();
      await saveSnapshot(rt, 'bench');
      saves.push(performance.now() - start);
      start = performance.now();
      await restoreSnapshot(rt, 'bench');
      restores.push(performance.now() - start);
    }
    const kept = (list: number[]): number[] => list.slice(2);
    const restore = median(kept(restores));
    const detail = (list: number[]): string =>
      `median of ${kept(list).length}: ${kept(list)
        .map((ms) => ms.toFixed(1))
        .join(', ')} ms`;
    return [
      { group: 'snapshots (10k users)', name: `save a snapshot — ${detail(saves)}`, value: median(kept(saves)), unit: 'ms' },
      {
        group: 'snapshots (10k users)',
        name: `restore a snapshot — ${detail(restores)}`,
        value: restore,
        unit: 'ms',
        target: `≤ ${RESTORE_TARGET_MS} ms`,
        ok: restore <= RESTORE_TARGET_MS,
      },
    ];
  } finally {
    await rt.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
