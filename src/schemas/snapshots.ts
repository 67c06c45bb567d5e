/** Named snapshots of the emulator's whole state (`/_emulator/snapshots`, docs/control-plane.md#snapshots). */
import { z } from '@hono/zod-openapi';
import { ClockState } from './control.js';
import { IsoTimestamp } from './common.js';

/** A snapshot's name: letters, digits, `-`, `_` and `.` (not first, so never `..` or a hidden file), at most 100. */
export const SNAPSHOT_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

export const SnapshotName = z.string().regex(SNAPSHOT_NAME_PATTERN, 'letters, digits, - _ and . (not first), at most 100').openapi({ example: 'after-signup' });

export const SnapshotNameParam = z.object({ name: SnapshotName.openapi({ param: { name: 'name', in: 'path' } }) });

export const SaveSnapshotBody = z.object({ name: SnapshotName }).openapi('SaveSnapshot');

export const Snapshot = z
  .object({
    name: SnapshotName,
    /** Real time of the save. */
    savedAt: IsoTimestamp,
    /** The emulator clock as saved: a restore sets it back to this time and speed. */
    clock: ClockState,
    /** Records of every collection. */
    records: z.number().int().nonnegative(),
    tenants: z.number().int().nonnegative(),
  })
  .openapi('Snapshot');

export type SnapshotInfo = z.infer<typeof Snapshot>;

export const SnapshotDeleted = z.object({ name: SnapshotName, deleted: z.literal(true) }).openapi('SnapshotDeleted');
