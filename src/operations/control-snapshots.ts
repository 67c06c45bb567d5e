/**
 * The control plane's snapshot operations, below `/_emulator/snapshots` (docs/control-plane.md#snapshots),
 * one createRoute() config each: the one declaration that routes/control-snapshots.ts and the
 * typed client (client/control.ts) share. Like the rest of the control plane they need no API
 * key and answer loopback callers (or the admin token's bearer) only.
 */
import { createRoute, z } from '@hono/zod-openapi';
import { envelope, errorResponses, jsonBody, jsonResponse } from '../schemas/common.js';
import { SaveSnapshotBody, Snapshot, SnapshotDeleted, SnapshotNameParam } from '../schemas/snapshots.js';

const tags = ['Snapshots'];

export const controlSnapshotsOperations = {
  listSnapshots: createRoute({
    method: 'get',
    path: '/',
    operationId: 'listSnapshots',
    tags,
    summary: 'List snapshots',
    description: 'Every snapshot kept by this emulator, by name, with when it was saved and the clock it holds. A store on PostgreSQL keeps none (409).',
    responses: { 200: jsonResponse(envelope(z.array(Snapshot)), 'Every snapshot, by name'), ...errorResponses(409) },
  }),
  saveSnapshot: createRoute({
    method: 'post',
    path: '/',
    operationId: 'saveSnapshot',
    tags,
    summary: 'Save the whole state as a snapshot (replacing one of the same name)',
    description:
      "Keeps every tenant's records, the deliveries with their planned retries, the DLQ, sessions and the clock with its speed under a name, in the data dir (0600).",
    request: jsonBody(SaveSnapshotBody),
    responses: { 201: jsonResponse(envelope(Snapshot), 'The snapshot saved'), ...errorResponses(409) },
  }),
  getSnapshot: createRoute({
    method: 'get',
    path: '/{name}',
    operationId: 'getSnapshot',
    tags,
    summary: 'Describe a snapshot',
    description: 'When the snapshot was saved, the clock it holds and how many records of each kind it keeps.',
    request: { params: SnapshotNameParam },
    responses: { 200: jsonResponse(envelope(Snapshot), 'The snapshot'), ...errorResponses(404, 409) },
  }),
  restoreSnapshot: createRoute({
    method: 'post',
    path: '/{name}/restore',
    operationId: 'restoreSnapshot',
    tags,
    summary: 'Put the store and the clock back as the snapshot holds them',
    description:
      'Replaces every record in one durable write, sets the clock back to the saved time and speed, and plans again every retry the restored deliveries wait for.',
    request: { params: SnapshotNameParam },
    responses: { 200: jsonResponse(envelope(Snapshot), 'The snapshot restored'), ...errorResponses(404, 409) },
  }),
  deleteSnapshot: createRoute({
    method: 'delete',
    path: '/{name}',
    operationId: 'deleteSnapshot',
    tags,
    summary: 'Delete a snapshot',
    description: 'Removes the snapshot and its file; the emulator itself is not changed.',
    request: { params: SnapshotNameParam },
    responses: { 200: jsonResponse(envelope(SnapshotDeleted), 'The snapshot is gone'), ...errorResponses(404, 409) },
  }),
};
