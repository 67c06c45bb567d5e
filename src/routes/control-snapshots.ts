/** `/_emulator/snapshots`: save, list, describe, restore and delete named snapshots of the whole state (docs/control-plane.md#snapshots). */
import { controlPlaneGuard } from '../middleware/admin.js';
import { controlSnapshotsOperations as ops } from '../operations/control-snapshots.js';
import type { Runtime } from '../runtime.js';
import { deleteSnapshot, getSnapshot, listSnapshots, restoreSnapshot, saveSnapshot } from '../services/snapshots.js';
import { newRouter } from './router.js';

export function controlSnapshotsRoutes(rt: Runtime) {
  const router = newRouter();
  // Its own guard, as every router of the control plane: mounted anywhere, it answers loopback or the admin token only.
  router.use('*', controlPlaneGuard(rt.options.adminToken));
  return router
    .openapi(ops.listSnapshots, async (c) => c.json({ data: await listSnapshots(rt) }, 200))
    .openapi(ops.saveSnapshot, async (c) => c.json({ data: await saveSnapshot(rt, c.req.valid('json').name) }, 201))
    .openapi(ops.getSnapshot, async (c) => c.json({ data: await getSnapshot(rt, c.req.valid('param').name) }, 200))
    .openapi(ops.restoreSnapshot, async (c) => c.json({ data: await restoreSnapshot(rt, c.req.valid('param').name) }, 200))
    .openapi(ops.deleteSnapshot, async (c) => c.json({ data: await deleteSnapshot(rt, c.req.valid('param').name) }, 200));
}
