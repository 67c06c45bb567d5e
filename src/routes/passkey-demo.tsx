/**
 * The passkey demo's route, mounted at /_emulator/ui/passkey behind the control plane's
 * loopback/admin guard (D11). The page itself is `ui/passkey-demo.tsx`.
 */
import { Hono } from 'hono';
import { controlPlaneGuard } from '../middleware/admin.js';
import type { Runtime } from '../runtime.js';
import { PasskeyDemoPage } from '../ui/passkey-demo.js';

/** The demo page's routes. `?key=` fills in the API key. */
export function passkeyDemoRoutes(rt: Runtime): Hono {
  const app = new Hono();
  app.use('*', controlPlaneGuard(rt.options.adminToken));
  app.get('/', (c) => c.html(<PasskeyDemoPage apiKey={c.req.query('key') ?? ''} />));
  return app;
}
