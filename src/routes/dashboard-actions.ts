/**
 * The dashboard's actions (D11): plain HTML forms that POST here and are answered 303
 * back to the page they came from, with a one-line message, so they work without JavaScript.
 * Each action validates with the control plane's own schemas and calls the same services.
 */
import type { Context, Hono } from 'hono';
import type { ZodType } from 'zod';
import { ApiError } from '../errors.js';
import { formBody } from '../middleware/body.js';
import type { AppEnv } from '../middleware/context.js';
import type { Runtime } from '../runtime.js';
import { AdvanceClockBody, FaultBody, SetClockBody, TriggerBody } from '../schemas/control.js';
import type { DeliveryView } from '../schemas/webhooks.js';
import { advanceClock, setClock } from '../services/clock.js';
import { resetStore, retryAllDead, seedDocument, triggerEvent } from '../services/control.js';
import { faultInjector } from '../services/faults.js';
import { attemptOutcome } from '../ui/components.js';
import { UI_BASE, type Flash } from '../ui/layout.js';

type Form = Record<string, string>;

/** Only a page of the dashboard may be come back to (never another site). */
export function safeBack(text: string | undefined): string {
  if (text === undefined || !text.startsWith(UI_BASE) || /[\r\n\\]/.test(text)) return UI_BASE;
  const url = new URL(text, 'http://svc.invalid');
  const ours = url.origin === 'http://svc.invalid' && (url.pathname === UI_BASE || url.pathname.startsWith(`${UI_BASE}/`));
  return ours ? url.pathname + url.search : UI_BASE;
}

/** `back` with the message in its query (`flash`, `kind`), replacing an older one. */
export function withFlash(back: string, flash: Flash): string {
  const url = new URL(back, 'http://svc.invalid');
  url.searchParams.set('flash', flash.message.slice(0, 500));
  url.searchParams.set('kind', flash.kind);
  return url.pathname + url.search;
}

/** Parses a form against a control-plane schema; a failure names each field in one line. */
function parseForm<T>(schema: ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => `${issue.path.join('.') || 'form'}: ${issue.message}`);
  throw new ApiError('validation_error', problems.join('; '));
}

/** A form field, or undefined when left empty. */
function given(form: Form, name: string): string | undefined {
  const value = form[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
}

function numberOf(text: string | undefined): number | undefined {
  return text === undefined ? undefined : Number(text);
}

function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

function retryMessage(delivery: DeliveryView): string {
  const last = delivery.attempts.at(-1);
  const outcome = last ? attemptOutcome(last) : 'no attempt';
  return delivery.status === 'succeeded'
    ? `Delivery ${delivery.id} delivered (${outcome}).`
    : `Delivery ${delivery.id} failed again (${outcome}); it is ${delivery.status === 'dead' ? 'back in the DLQ' : delivery.status}.`;
}

type Action = (form: Form, c: Context<AppEnv, string>) => string | { message: string; back: string } | Promise<string | { message: string; back: string }>;

/** Runs an action and answers 303 to `back` with its message, or with the error's. */
function action(run: Action) {
  return async (c: Context<AppEnv, string>) => {
    const body = await formBody(c.req);
    const form: Form = {};
    for (const [name, value] of Object.entries(body)) if (typeof value === 'string') form[name] = value;
    let back = safeBack(form['back']);
    let flash: Flash;
    try {
      const outcome = await run(form, c);
      if (typeof outcome !== 'string') back = outcome.back;
      flash = { kind: 'ok', message: typeof outcome === 'string' ? outcome : outcome.message };
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      const details = error.details.map((detail) => (detail.path ? `${detail.path}: ${detail.message}` : detail.message));
      flash = { kind: 'error', message: [error.message, ...details].join(' · ') };
    }
    return c.redirect(withFlash(back, flash), 303);
  };
}

/** Mounts the actions on the dashboard's router. */
export function dashboardActions(app: Hono<AppEnv>, rt: Runtime): void {
  app.post(
    '/clock/advance',
    action(async (form) => {
      const { by } = parseForm(AdvanceClockBody, { by: given(form, 'by') });
      const { fired } = await advanceClock(rt, by);
      return `Advanced the clock by ${by}: ${plural(fired, 'delivery attempt')} fired.`;
    }),
  );

  app.post(
    '/clock',
    action(async (form) => {
      const now = given(form, 'now');
      const when = now === undefined ? undefined : new Date(now);
      if (when !== undefined && Number.isNaN(when.getTime())) throw new ApiError('validation_error', `now: "${now}" is not an ISO 8601 time`);
      const body = parseForm(SetClockBody, { now: when?.toISOString(), speed: numberOf(given(form, 'speed')) });
      const clock = await setClock(rt, body);
      return `The clock reads ${clock.now} at ×${clock.speed}.`;
    }),
  );

  app.post(
    '/deliveries/:id/retry',
    action(async (_form, c) => retryMessage(await rt.dispatcher.retry(null, c.req.param('id') ?? ''))),
  );

  app.post(
    '/dlq/retry-all',
    action(async () => {
      const results = await retryAllDead(rt);
      const delivered = results.filter((delivery) => delivery.status === 'succeeded').length;
      return `Retried ${plural(results.length, 'delivery', 'deliveries')}: ${delivered} delivered, ${results.length - delivered} failed again.`;
    }),
  );

  app.post(
    '/trigger',
    action(async (form) => {
      const input = parseForm(TriggerBody, { type: given(form, 'type'), tenantId: given(form, 'tenantId') });
      const { event, deliveries } = await triggerEvent(rt, input);
      const delivered = deliveries.filter((delivery) => delivery.status === 'succeeded').length;
      return `Triggered ${event.type} (${event.id}): ${plural(deliveries.length, 'delivery', 'deliveries')}, ${delivered} delivered.`;
    }),
  );

  app.post(
    '/faults',
    action(async (form) => {
      const fault = await faultInjector(rt).add(
        parseForm(FaultBody, {
          method: given(form, 'method'),
          path: given(form, 'path'),
          status: numberOf(given(form, 'status')),
          delay: given(form, 'delay'),
          count: numberOf(given(form, 'count')),
          tenant: given(form, 'tenant'),
        }),
      );
      const answer = fault.status === null ? 'go on as usual' : `answer ${fault.status}`;
      const what = fault.delay === null ? answer : `wait ${fault.delay}, then ${answer}`;
      const whose = fault.tenant === null ? '' : ` of ${fault.tenant}`;
      return `Fault ${fault.id}: the next ${plural(fault.count, 'request')}${whose} to ${fault.method ?? 'any method'} ${fault.path} will ${what}.`;
    }),
  );

  app.post(
    '/faults/clear',
    action(async () => `Cleared ${plural(await faultInjector(rt).clear(), 'fault')}.`),
  );

  app.post(
    '/seed',
    action(async (form) => {
      let raw: unknown;
      try {
        raw = JSON.parse(form['fixture'] ?? '');
      } catch (error) {
        throw new ApiError('invalid_json', `The fixture is not valid JSON: ${(error as Error).message}`);
      }
      const { tenants } = await seedDocument(rt, raw);
      return `Seeded ${plural(tenants.length, 'tenant')}: ${tenants.map((tenant) => `${tenant.name} (${tenant.id})`).join(', ')}.`;
    }),
  );

  app.post(
    '/reset',
    action(async () => {
      const { tenants } = await resetStore(rt);
      // The page it came from may show a record that no longer exists.
      return { back: UI_BASE, message: `Reset: the store holds the fixture again (${tenants.map((tenant) => tenant.name).join(', ')}).` };
    }),
  );
}
