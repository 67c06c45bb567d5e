/**
 * The control plane under /_emulator (D10, D11): health, the emulator clock, the
 * event log, the DLQ, reset and seed, triggered events and injected faults. Mounted without
 * the API key behind the loopback/admin guard.
 */
import { Hono } from 'hono';
import type { ZodType } from 'zod';
import { ApiError } from '../errors.js';
import type { AppEnv } from '../middleware/context.js';
import { controlPlaneGuard } from '../middleware/admin.js';
import type { Runtime } from '../runtime.js';
import { AdvanceClockBody, EventsQuery, FaultBody, SetClockBody, TriggerBody } from '../schemas/control.js';
import { advanceClock, clockView, scheduledCount, setClock } from '../services/clock.js';
import { controlDeliveryView, deadLetters, eventLog, resetStore, retryAllDead, seedDocument, triggerEvent } from '../services/control.js';
import { storeInfo } from '../services/dashboard.js';
import { faultInjector } from '../services/faults.js';
import { faultPathProblem, type ApiRoute } from './fault-paths.js';
import { harnessRoutes } from './control-harness.js';
import { issueDetails } from './router.js';

async function parseBody<T>(schema: ZodType<T>, body: Promise<unknown>): Promise<T> {
  let raw: unknown;
  try {
    raw = await body;
  } catch {
    raw = {};
  }
  const result = schema.safeParse(raw ?? {});
  if (!result.success) throw new ApiError('validation_error', 'The request body is not valid', issueDetails(result.error.issues, 'json'));
  return result.data;
}

/** `apiRoutes`: every /v1 route, relative to /v1, to refuse a fault that could never fire (none given: not checked). */
export function controlRoutes(rt: Runtime, apiRoutes?: () => Promise<readonly ApiRoute[]>) {
  const app = new Hono<AppEnv>();
  app.use('*', controlPlaneGuard(rt.options.adminToken));

  app.get('/health', (c) =>
    c.json({
      data: {
        status: 'ok',
        ...storeInfo(rt),
        clock: clockView(rt),
        scheduledDeliveries: scheduledCount(rt),
      },
    }),
  );

  app.get('/clock', (c) => c.json({ data: clockView(rt) }));

  app.post('/clock', async (c) => c.json({ data: await setClock(rt, await parseBody(SetClockBody, c.req.json())) }));

  app.post('/clock/advance', async (c) => c.json({ data: await advanceClock(rt, (await parseBody(AdvanceClockBody, c.req.json())).by) }));

  app.get('/events', (c) => {
    const query = EventsQuery.safeParse(c.req.query());
    if (!query.success) throw new ApiError('validation_error', 'The request query is not valid', issueDetails(query.error.issues, 'query'));
    const { type, tenant, limit = 100 } = query.data;
    return c.json({ data: eventLog(rt, { type, tenant }).slice(0, limit) });
  });

  app.get('/dlq', (c) => c.json({ data: deadLetters(rt).map(controlDeliveryView) }));

  app.post('/deliveries/:id/retry', async (c) => {
    const delivery = await rt.dispatcher.retry(null, c.req.param('id'));
    return c.json({ data: controlDeliveryView(delivery) });
  });

  app.post('/dlq/retry', async (c) => c.json({ data: (await retryAllDead(rt)).map(controlDeliveryView) }));

  app.post('/reset', async (c) => c.json({ data: await resetStore(rt) }));

  // No body at all (no Content-Type) reads as nothing: a validation error, not a JSON parse failure.
  app.post('/seed', async (c) => c.json({ data: await seedDocument(rt, await c.req.json().catch(() => undefined)) }, 201));

  app.post('/trigger', async (c) => {
    const result = await triggerEvent(rt, await parseBody(TriggerBody, c.req.json()));
    return c.json({ data: result }, 201);
  });

  app.get('/faults', async (c) => c.json({ data: await faultInjector(rt).list() }));

  app.post('/faults', async (c) => {
    const fault = await parseBody(FaultBody, c.req.json());
    const problem = apiRoutes === undefined ? null : faultPathProblem(fault, await apiRoutes());
    if (problem !== null)
      throw new ApiError('validation_error', `The fault's path matches no route: ${problem}`, [{ path: 'path', message: problem, in: 'body' }]);
    return c.json({ data: await faultInjector(rt).add(fault) }, 201);
  });

  app.delete('/faults', async (c) => c.json({ data: { cleared: await faultInjector(rt).clear() } }));

  app.route('/', harnessRoutes(rt));

  return app;
}
