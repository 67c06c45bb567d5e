/** The operations of routes/mfa.ts, one createRoute() config each: the one declaration its routes, the typed client and the OpenAPI document share. */
import { createRoute } from '@hono/zod-openapi';
import { SESSION_SECURITY } from '../schemas/auth.js';
import { EmptyBody, envelope, errorResponses, jsonBody, jsonResponse, optionalJsonBody } from '../schemas/common.js';
import { MfaChallenge, MfaDisabled, MfaEnabled, MfaSetup, MfaStatus, MfaVerified, VerifyBody, VerifySetupBody } from '../schemas/mfa.js';
import { MFA_EXAMPLES as EXAMPLES } from './examples.js';
import type { ApiTag } from './tags.js';

const tags: ApiTag[] = ['MFA'];
const security = SESSION_SECURITY;

export const mfaOperations = {
  setupMfa: createRoute({
    method: 'post',
    path: '/setup',
    operationId: 'setupMfa',
    tags,
    security,
    summary: 'Start MFA setup',
    request: optionalJsonBody(EmptyBody, {}),
    responses: { 200: jsonResponse(envelope(MfaSetup), 'The TOTP secret, its otpauth URL and QR code', { data: EXAMPLES.setup }), ...errorResponses(409, 410) },
  }),
  verifyMfaSetup: createRoute({
    method: 'post',
    path: '/verify-setup',
    operationId: 'verifyMfaSetup',
    tags,
    security,
    summary: 'Complete MFA setup',
    request: jsonBody(VerifySetupBody, EXAMPLES.verifySetupBody),
    responses: {
      200: jsonResponse(envelope(MfaEnabled), 'MFA is on; the recovery codes are shown once', { data: EXAMPLES.enabled }),
      ...errorResponses(409, 410),
    },
  }),
  createMfaChallenge: createRoute({
    method: 'post',
    path: '/challenge',
    operationId: 'createMfaChallenge',
    tags,
    security,
    summary: 'Request MFA challenge',
    request: optionalJsonBody(EmptyBody, {}),
    responses: { 201: jsonResponse(envelope(MfaChallenge), 'The challenge, open for 5 minutes', { data: EXAMPLES.challenge }), ...errorResponses(409, 410) },
  }),
  verifyMfa: createRoute({
    method: 'post',
    path: '/verify',
    operationId: 'verifyMfa',
    tags,
    security,
    summary: 'Verify MFA code',
    request: jsonBody(VerifyBody, EXAMPLES.verifyBody),
    responses: {
      200: jsonResponse(envelope(MfaVerified), 'The session is MFA-fresh until freshUntil', { data: EXAMPLES.verified }),
      ...errorResponses(404, 409, 410),
    },
  }),
  getMfaStatus: createRoute({
    method: 'get',
    path: '/status',
    operationId: 'getMfaStatus',
    tags,
    security,
    summary: 'Get MFA status',
    responses: { 200: jsonResponse(envelope(MfaStatus), 'Whether MFA is on and fresh', { data: EXAMPLES.status }), ...errorResponses(410) },
  }),
  disableMfa: createRoute({
    method: 'delete',
    path: '/',
    operationId: 'disableMfa',
    tags,
    security,
    summary: 'Disable MFA',
    responses: { 200: jsonResponse(envelope(MfaDisabled), 'MFA is off', { data: EXAMPLES.disabled }), ...errorResponses(403, 409, 410) },
  }),
};
