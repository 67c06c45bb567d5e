/**
 * The typed client's snapshot calls, under `client.emulator.snapshots`: save, list, get,
 * restore and delete named snapshots of the emulator's whole state (docs/control-plane.md#snapshots).
 * Their paths and answers come from the operations' createRoute() configs
 * (operations/control-snapshots.ts), below the control plane's `/_emulator`.
 */
import type { z } from '@hono/zod-openapi';
import { controlSnapshotsOperations as ops } from '../operations/control-snapshots.js';
import type { Snapshot, SnapshotDeleted } from '../schemas/snapshots.js';
import type { ApiResult, CallOptions } from './transport.js';

type Control = <T>(method: string, path: string, extra?: CallOptions) => Promise<ApiResult<T>>;
type R<T> = Promise<ApiResult<{ data: T }>>;
export type SnapshotInfo = z.infer<typeof Snapshot>;

/** The path of an operation below `/_emulator`, its `{name}` filled in. */
function pathOf(config: { path: string }, name?: string): string {
  const path = config.path === '/' ? '' : config.path.replace('{name}', encodeURIComponent(name ?? ''));
  return `/snapshots${path}`;
}

/** The snapshot calls over `control`, which sends a request below the control plane's base (`/_emulator`). */
export function snapshotCalls(control: Control) {
  return {
    list: (extra?: CallOptions): R<SnapshotInfo[]> => control('GET', pathOf(ops.listSnapshots), extra),
    save: (name: string, extra?: CallOptions): R<SnapshotInfo> => control('POST', pathOf(ops.saveSnapshot), { ...extra, body: { name } }),
    get: (name: string, extra?: CallOptions): R<SnapshotInfo> => control('GET', pathOf(ops.getSnapshot, name), extra),
    restore: (name: string, extra?: CallOptions): R<SnapshotInfo> => control('POST', pathOf(ops.restoreSnapshot, name), extra),
    delete: (name: string, extra?: CallOptions): R<z.infer<typeof SnapshotDeleted>> => control('DELETE', pathOf(ops.deleteSnapshot, name), extra),
  };
}
