/** /v1/mfa: setup, verify-setup, challenge, verify, status, disable. All act for the session's user (D4). */
import { requireFreshMfa } from '../middleware/mfa.js';
import { userSession } from '../middleware/session.js';
import { mfaOperations } from '../operations/mfa.js';
import type { Runtime } from '../runtime.js';
import { NO_STORE } from '../schemas/auth.js';
import { disableMfa, mfaStatus, openMfaChallenge, setupMfa, verifyMfa, verifyMfaSetup } from '../services/mfa.js';
import { newRouter } from './router.js';

export function mfaRoutes(rt: Runtime) {
  const router = newRouter();
  router.use('*', userSession(rt));
  return router
    .openapi(mfaOperations.setupMfa, async (c) => c.json({ data: await setupMfa(rt, c.get('tenant'), c.get('user')) }, 200, NO_STORE))
    .openapi(mfaOperations.verifyMfaSetup, async (c) => {
      const recoveryCodes = await verifyMfaSetup(rt, c.get('tenant'), c.get('user'), c.req.valid('json').code);
      return c.json({ data: { enabled: true as const, recoveryCodes } }, 200, NO_STORE);
    })
    .openapi(mfaOperations.createMfaChallenge, async (c) => {
      const challenge = await openMfaChallenge(rt, c.get('user'), c.get('session'));
      return c.json({ data: { challengeId: challenge.id, expiresAt: challenge.expiresAt } }, 201);
    })
    .openapi(mfaOperations.verifyMfa, async (c) => {
      const { challengeId, code } = c.req.valid('json');
      const freshUntil = await verifyMfa(rt, c.get('tenant'), c.get('user'), c.get('session'), challengeId, code);
      return c.json({ data: { verified: true as const, freshUntil } }, 200);
    })
    .openapi(mfaOperations.getMfaStatus, (c) => c.json({ data: mfaStatus(rt, c.get('user'), c.get('session')) }, 200))
    .openapi({ ...mfaOperations.disableMfa, middleware: [requireFreshMfa(rt)] as const }, async (c) => {
      await disableMfa(rt, c.get('user'));
      return c.json({ data: { enabled: false as const } }, 200);
    });
}
