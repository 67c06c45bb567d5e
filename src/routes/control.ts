/**
 * The control plane under /_emulator (D10, D11): health, the emulator clock, the event log,
 * the DLQ, reset and seed, triggered events and injected faults, with the test harness's calls
 * (control-harness.ts), snapshots (control-snapshots.ts), the emulated DNS (control-dns.ts) and the control plane's OpenAPI document. Every route is declared in
 * operations/control.ts and validated by its schemas; mounted without the API key behind the
 * loopback/admin guard.
 */
import { ownUrl } from '../base-url.js';
import { ApiError } from '../errors.js';
import { controlPlaneGuard } from '../middleware/admin.js';
import { controlOperations as ops } from '../operations/control.js';
import type { Runtime } from '../runtime.js';
import { advanceClock, clockView, scheduledCount, setClock } from '../services/clock.js';
import { controlDeliveryView, deadLetters, eventLog, resetStore, retryAllDead, seedDocument, triggerEvent } from '../services/control.js';
import { storeInfo } from '../services/dashboard.js';
import { faultInjector } from '../services/faults.js';
import { harnessRoutes } from './control-harness.js';
import { controlSnapshotsRoutes } from './control-snapshots.js';
import { controlDnsRoutes } from './control-dns.js';
import { faultPathProblem, type ApiRoute } from './fault-paths.js';
import { registerControlDocument } from './openapi.js';
import { newRouter } from './router.js';

/**
 * `apiRoutes`: every /v1 route, relative to /v1, to refuse a fault that could never fire (none
 * given: not checked). `version` is the package's, for the document.
 */
export function controlRoutes(rt: Runtime, options: { apiRoutes?: () => Promise<readonly ApiRoute[]>; version?: string } = {}) {
  const app = newRouter();
  app.use('*', controlPlaneGuard(rt.options.adminToken));

  app
    .openapi(ops.getEmulatorHealth, (c) =>
      c.json({ data: { status: 'ok' as const, ...storeInfo(rt), clock: clockView(rt), scheduledDeliveries: scheduledCount(rt) } }, 200),
    )
    .openapi(ops.getClock, (c) => c.json({ data: clockView(rt) }, 200))
    .openapi(ops.setClock, async (c) => c.json({ data: await setClock(rt, c.req.valid('json')) }, 200))
    .openapi(ops.advanceClock, async (c) => c.json({ data: await advanceClock(rt, c.req.valid('json').by) }, 200))
    .openapi(ops.listEvents, (c) => {
      const { type, tenant, limit = 100 } = c.req.valid('query');
      return c.json({ data: eventLog(rt, { type, tenant }).slice(0, limit) }, 200);
    })
    .openapi(ops.listDeadLetters, (c) => c.json({ data: deadLetters(rt).map(controlDeliveryView) }, 200))
    .openapi(ops.retryDelivery, async (c) => c.json({ data: controlDeliveryView(await rt.dispatcher.retry(null, c.req.valid('param').id)) }, 200))
    .openapi(ops.retryDeadLetters, async (c) => c.json({ data: (await retryAllDead(rt)).map(controlDeliveryView) }, 200))
    .openapi(ops.resetStore, async (c) => c.json({ data: await resetStore(rt) }, 200))
    .openapi(ops.seedStore, async (c) => c.json({ data: await seedDocument(rt, c.req.valid('json')) }, 201))
    .openapi(ops.triggerEvent, async (c) => c.json({ data: await triggerEvent(rt, c.req.valid('json')) }, 201))
    .openapi(ops.listFaults, async (c) => c.json({ data: await faultInjector(rt).list() }, 200))
    .openapi(ops.addFault, async (c) => {
      const fault = c.req.valid('json');
      const problem = options.apiRoutes === undefined ? null : faultPathProblem(fault, await options.apiRoutes());
      if (problem !== null)
        throw new ApiError('validation_error', `The fault's path matches no route: ${problem}`, [{ path: 'path', message: problem, in: 'body' }]);
      return c.json({ data: await faultInjector(rt).add(fault) }, 201);
    })
    .openapi(ops.clearFaults, async (c) => c.json({ data: { cleared: await faultInjector(rt).clear() } }, 200));

  app.route('/', harnessRoutes(rt));
  app.route('/snapshots', controlSnapshotsRoutes(rt));
  app.route('/dns', controlDnsRoutes(rt));
  registerControlDocument(app, { version: options.version ?? '0.0.0', publicUrl: () => ownUrl(rt.options) });
  return app;
}
