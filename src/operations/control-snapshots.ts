/**
 * The control plane's snapshot operations, below `/_emulator/snapshots` (docs/control-plane.md#snapshots),
 * one createRoute() config each: the one declaration that routes/control-snapshots.ts and the
 * typed client (client/snapshots.ts) share. Like the rest of the control plane they need no API
 * key and answer loopback callers (or the admin token's bearer) only.
 */
import { createRoute, z } from '@hono/zod-openapi';
import { envelope, errorResponses, jsonBody, jsonResponse } from '../schemas/common.js';
import { SaveSnapshotBody, Snapshot, SnapshotDeleted, SnapshotNameParam } from '../schemas/snapshots.js';

const tags = ['Emulator snapshots'];

export const controlSnapshotsOperations = {
  listSnapshots: createRoute({
    method: 'get',
    path: '/',
    operationId: 'listSnapshots',
    tags,
    summary: 'List snapshots',
    responses: { 200: jsonResponse(envelope(z.array(Snapshot)), 'Every snapshot, by name'), ...errorResponses(409) },
  }),
  saveSnapshot: createRoute({
    method: 'post',
    path: '/',
    operationId: 'saveSnapshot',
    tags,
    summary: 'Save the whole state as a snapshot (replacing one of the same name)',
    request: jsonBody(SaveSnapshotBody),
    responses: { 201: jsonResponse(envelope(Snapshot), 'The snapshot saved'), ...errorResponses(409) },
  }),
  getSnapshot: createRoute({
    method: 'get',
    path: '/{name}',
    operationId: 'getSnapshot',
    tags,
    summary: 'Describe a snapshot',
    request: { params: SnapshotNameParam },
    responses: { 200: jsonResponse(envelope(Snapshot), 'The snapshot'), ...errorResponses(404, 409) },
  }),
  restoreSnapshot: createRoute({
    method: 'post',
    path: '/{name}/restore',
    operationId: 'restoreSnapshot',
    tags,
    summary: 'Put the store and the clock back as the snapshot holds them',
    request: { params: SnapshotNameParam },
    responses: { 200: jsonResponse(envelope(Snapshot), 'The snapshot restored'), ...errorResponses(404, 409) },
  }),
  deleteSnapshot: createRoute({
    method: 'delete',
    path: '/{name}',
    operationId: 'deleteSnapshot',
    tags,
    summary: 'Delete a snapshot',
    request: { params: SnapshotNameParam },
    responses: { 200: jsonResponse(envelope(SnapshotDeleted), 'The snapshot is gone'), ...errorResponses(404, 409) },
  }),
};
