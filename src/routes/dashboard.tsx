/**
 * The dashboard at /_emulator/ui (D11; spec part 3: the DLQ is viewed and retried "in
 * the dashboard"): server-rendered pages over the same services as the control plane, behind
 * the same guard (docs/control-plane.md#who-may-call-it). Reading needs no JavaScript; actions
 * are forms (see dashboard-actions.ts). Errors are pages here, not JSON envelopes, but for the
 * refusals made before any route (a foreign Host, a cross-site action), which are envelopes.
 */
import type { Context } from 'hono';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { ApiError, notFound } from '../errors.js';
import { MAX_BODY_BYTES } from '../middleware/body.js';
import { controlPlaneGuard } from '../middleware/admin.js';
import type { AppEnv } from '../middleware/context.js';
import type { Runtime } from '../runtime.js';
import { TrustLevel } from '../schemas/users.js';
import { DeliveryStatus } from '../schemas/webhooks.js';
import { clockView } from '../services/clock.js';
import { findDelivery, findTenant, findWebhook } from '../services/dashboard.js';
import { ControlPage } from '../ui/control.js';
import { DlqPage } from '../ui/dlq.js';
import { EventsPage } from '../ui/events.js';
import { Layout, UI_BASE, type Flash, type PageFrame } from '../ui/layout.js';
import { OverviewPage } from '../ui/overview.js';
import { TenantPage, UsersPage } from '../ui/tenant.js';
import { DeliveryPage, WebhookPage, WebhooksPage } from '../ui/webhooks.js';
import { dashboardActions } from './dashboard-actions.js';

function frameOf(rt: Runtime, c: Context<AppEnv>): PageFrame {
  const url = new URL(c.req.url);
  const message = url.searchParams.get('flash');
  const flash: Flash | undefined =
    message === null || message === '' ? undefined : { kind: url.searchParams.get('kind') === 'error' ? 'error' : 'ok', message: message.slice(0, 500) };
  url.searchParams.delete('flash');
  url.searchParams.delete('kind');
  return { here: url.pathname + url.search, clock: clockView(rt), flash };
}

function pageNumber(text: string | undefined): number {
  return text !== undefined && /^\d{1,6}$/.test(text) && Number(text) >= 1 ? Number(text) : 1;
}

/** A query parameter, or undefined when absent or empty. */
function param(c: Context<AppEnv>, name: string): string | undefined {
  const value = c.req.query(name)?.trim();
  return value === undefined || value === '' ? undefined : value.slice(0, 200);
}

function oneOf<T extends string>(values: readonly T[], text: string | undefined): T | undefined {
  return values.find((value) => value === text);
}

export function dashboardRoutes(rt: Runtime) {
  const app = new Hono<AppEnv>();
  const frame = (c: Context<AppEnv>): PageFrame => frameOf(rt, c);

  // Who may call it; that an action was not sent by another site's page is checked before
  // (middleware/cross-site.ts): the dashboard's forms pass as posted with svc's own Origin.
  app.use('*', controlPlaneGuard(rt.options.adminToken));
  app.use(
    '*',
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: () => {
        throw new ApiError('payload_too_large', 'The form is larger than 1 MiB');
      },
    }),
  );

  app.onError((error, c) => {
    const known = error instanceof ApiError ? error : null;
    if (!known)
      rt.options.logger?.log('error', 'dashboard error', { path: c.req.path, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
    const status = (known?.status ?? 500) as ContentfulStatusCode;
    const title = status === 404 ? 'Not found' : status === 403 ? 'Not allowed' : 'Something went wrong';
    return c.html(
      <Layout title={title} {...frameOf(rt, c)}>
        <h1>{title}</h1>
        <p class="subtitle">{known?.message ?? 'The emulator failed to render this page; its log has the details.'}</p>
        <a class="btn" href={UI_BASE}>
          Back to the overview
        </a>
      </Layout>,
      status,
    );
  });

  app.get('/', (c) => c.html(<OverviewPage rt={rt} frame={frame(c)} />));

  app.get('/tenants/:id', (c) => {
    const tenant = findTenant(rt, c.req.param('id'));
    if (!tenant) throw notFound('tenant', c.req.param('id'));
    return c.html(<TenantPage rt={rt} frame={frame(c)} tenant={tenant} />);
  });

  app.get('/tenants/:id/users', (c) => {
    const tenant = findTenant(rt, c.req.param('id'));
    if (!tenant) throw notFound('tenant', c.req.param('id'));
    const query = { search: param(c, 'search'), trustLevel: oneOf(TrustLevel.options, param(c, 'trust_level')), page: pageNumber(param(c, 'page')) };
    return c.html(<UsersPage rt={rt} frame={frame(c)} tenant={tenant} query={query} />);
  });

  app.get('/webhooks', (c) => c.html(<WebhooksPage rt={rt} frame={frame(c)} />));

  app.get('/webhooks/:id', (c) => {
    const webhook = findWebhook(rt, c.req.param('id'));
    if (!webhook) throw notFound('webhook', c.req.param('id'));
    return c.html(<WebhookPage rt={rt} frame={frame(c)} webhook={webhook} status={oneOf(DeliveryStatus.options, param(c, 'status'))} />);
  });

  app.get('/deliveries/:id', (c) => {
    const delivery = findDelivery(rt, c.req.param('id'));
    if (!delivery) throw notFound('delivery', c.req.param('id'));
    return c.html(<DeliveryPage frame={frame(c)} delivery={delivery} />);
  });

  app.get('/dlq', (c) => c.html(<DlqPage rt={rt} frame={frame(c)} />));

  app.get('/events', (c) => {
    const query = { type: param(c, 'type'), tenant: param(c, 'tenant'), page: pageNumber(param(c, 'page')) };
    return c.html(<EventsPage rt={rt} frame={frame(c)} query={query} />);
  });

  app.get('/control', (c) => c.html(<ControlPage rt={rt} frame={frame(c)} />));

  dashboardActions(app, rt);

  app.all('*', (c) => {
    throw notFound('dashboard page', c.req.path);
  });
  return app;
}
