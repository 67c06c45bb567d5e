/** /v1/mfa: setup, verify-setup, challenge, verify, status, disable. All act for the session's user (D4). */
import { createRoute } from '@hono/zod-openapi';
import { requireFreshMfa } from '../middleware/mfa.js';
import { userSession } from '../middleware/session.js';
import type { Runtime } from '../runtime.js';
import { NO_STORE, SESSION_SECURITY } from '../schemas/auth.js';
import { EmptyBody, envelope, errorResponses, jsonBody, jsonResponse, optionalJsonBody } from '../schemas/common.js';
import { MfaChallenge, MfaDisabled, MfaEnabled, MfaSetup, MfaStatus, MfaVerified, VerifyBody, VerifySetupBody } from '../schemas/mfa.js';
import { disableMfa, mfaStatus, openMfaChallenge, setupMfa, verifyMfa, verifyMfaSetup } from '../services/mfa.js';
import { newRouter } from './router.js';
import type { ApiTag } from './openapi-tags.js';

const tags: ApiTag[] = ['MFA'];
const security = SESSION_SECURITY;

export function mfaRoutes(rt: Runtime) {
  const router = newRouter();
  router.use('*', userSession(rt));
  return router
    .openapi(
      createRoute({
        method: 'post',
        path: '/setup',
        operationId: 'setupMfa',
        tags,
        security,
        summary: 'Start MFA setup',
        request: optionalJsonBody(EmptyBody),
        responses: { 200: jsonResponse(envelope(MfaSetup), 'The TOTP secret, its otpauth URL and QR code'), ...errorResponses(409, 410) },
      }),
      async (c) => c.json({ data: await setupMfa(rt, c.get('tenant'), c.get('user')) }, 200, NO_STORE),
    )
    .openapi(
      createRoute({
        method: 'post',
        path: '/verify-setup',
        operationId: 'verifyMfaSetup',
        tags,
        security,
        summary: 'Complete MFA setup',
        request: jsonBody(VerifySetupBody),
        responses: { 200: jsonResponse(envelope(MfaEnabled), 'MFA is on; the recovery codes are shown once'), ...errorResponses(409, 410) },
      }),
      async (c) => {
        const recoveryCodes = await verifyMfaSetup(rt, c.get('tenant'), c.get('user'), c.req.valid('json').code);
        return c.json({ data: { enabled: true as const, recoveryCodes } }, 200, NO_STORE);
      },
    )
    .openapi(
      createRoute({
        method: 'post',
        path: '/challenge',
        operationId: 'createMfaChallenge',
        tags,
        security,
        summary: 'Request MFA challenge',
        request: optionalJsonBody(EmptyBody),
        responses: { 201: jsonResponse(envelope(MfaChallenge), 'The challenge, open for 5 minutes'), ...errorResponses(409, 410) },
      }),
      async (c) => {
        const challenge = await openMfaChallenge(rt, c.get('user'), c.get('session'));
        return c.json({ data: { challengeId: challenge.id, expiresAt: challenge.expiresAt } }, 201);
      },
    )
    .openapi(
      createRoute({
        method: 'post',
        path: '/verify',
        operationId: 'verifyMfa',
        tags,
        security,
        summary: 'Verify MFA code',
        request: jsonBody(VerifyBody),
        responses: { 200: jsonResponse(envelope(MfaVerified), 'The session is MFA-fresh until freshUntil'), ...errorResponses(404, 409, 410) },
      }),
      async (c) => {
        const { challengeId, code } = c.req.valid('json');
        const freshUntil = await verifyMfa(rt, c.get('tenant'), c.get('user'), c.get('session'), challengeId, code);
        return c.json({ data: { verified: true as const, freshUntil } }, 200);
      },
    )
    .openapi(
      createRoute({
        method: 'get',
        path: '/status',
        operationId: 'getMfaStatus',
        tags,
        security,
        summary: 'Get MFA status',
        responses: { 200: jsonResponse(envelope(MfaStatus), 'Whether MFA is on and fresh'), ...errorResponses(410) },
      }),
      (c) => c.json({ data: mfaStatus(rt, c.get('user'), c.get('session')) }, 200),
    )
    .openapi(
      createRoute({
        method: 'delete',
        path: '/',
        operationId: 'disableMfa',
        tags,
        security,
        summary: 'Disable MFA',
        middleware: [requireFreshMfa(rt)] as const,
        responses: { 200: jsonResponse(envelope(MfaDisabled), 'MFA is off'), ...errorResponses(403, 409, 410) },
      }),
      async (c) => {
        await disableMfa(rt, c.get('user'));
        return c.json({ data: { enabled: false as const } }, 200);
      },
    );
}
