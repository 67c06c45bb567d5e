/** /v1/auth/passkey: register-options, register-verify, login-options, login-verify. */
import { createRoute } from '@hono/zod-openapi';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import type { Runtime } from '../runtime.js';
import { NO_STORE, SignIn } from '../schemas/auth.js';
import { envelope, errorResponses, jsonBody, jsonResponse } from '../schemas/common.js';
import { LoginOptionsQuery, LoginVerifyBody, PasskeyOptions, RegisterOptionsBody, RegisterVerifyBody } from '../schemas/passkeys.js';
import { authenticationOptions, registrationOptions, verifyAuthentication, verifyRegistration } from '../services/passkeys.js';
import { signInView } from '../services/sessions.js';
import { API_KEY_SECURITY, newRouter } from './router.js';
import type { ApiTag } from './openapi-tags.js';

const tags: ApiTag[] = ['Passkey/WebAuthn'];
const security = API_KEY_SECURITY;

export function passkeysRoutes(rt: Runtime) {
  return newRouter()
    .openapi(
      createRoute({
        method: 'post',
        path: '/register-options',
        operationId: 'getPasskeyRegistrationOptions',
        tags,
        security,
        summary: 'Get registration challenge',
        request: jsonBody(RegisterOptionsBody),
        responses: { 200: jsonResponse(envelope(PasskeyOptions), 'Creation options and their challenge id') },
      }),
      async (c) => c.json({ data: await registrationOptions(rt, c.get('tenant'), c.req.valid('json')) }, 200, NO_STORE),
    )
    .openapi(
      createRoute({
        method: 'post',
        path: '/register-verify',
        operationId: 'verifyPasskeyRegistration',
        tags,
        security,
        summary: 'Verify registration',
        request: jsonBody(RegisterVerifyBody),
        responses: { 200: jsonResponse(envelope(SignIn), 'The passkey is stored; the user is signed in'), ...errorResponses(404, 409, 410) },
      }),
      async (c) => {
        const { challengeId, response } = c.req.valid('json');
        // The schema checked the shape; the transports' names are the library's to judge.
        const { user, session } = await verifyRegistration(rt, c.get('tenant'), challengeId, response as RegistrationResponseJSON);
        return c.json({ data: signInView(user, session) }, 200, NO_STORE);
      },
    )
    .openapi(
      createRoute({
        method: 'get',
        path: '/login-options',
        operationId: 'getPasskeyLoginOptions',
        tags,
        security,
        summary: 'Get login challenge',
        request: { query: LoginOptionsQuery },
        responses: { 200: jsonResponse(envelope(PasskeyOptions), 'Request options and their challenge id'), ...errorResponses(404) },
      }),
      async (c) => c.json({ data: await authenticationOptions(rt, c.get('tenant'), c.req.valid('query').email) }, 200, NO_STORE),
    )
    .openapi(
      createRoute({
        method: 'post',
        path: '/login-verify',
        operationId: 'verifyPasskeyLogin',
        tags,
        security,
        summary: 'Verify login',
        request: jsonBody(LoginVerifyBody),
        responses: { 200: jsonResponse(envelope(SignIn), 'The user, signed in'), ...errorResponses(404, 410) },
      }),
      async (c) => {
        const { challengeId, response } = c.req.valid('json');
        const { user, session } = await verifyAuthentication(rt, c.get('tenant'), challengeId, response as AuthenticationResponseJSON);
        return c.json({ data: signInView(user, session) }, 200, NO_STORE);
      },
    );
}
