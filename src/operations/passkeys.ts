/** The operations of routes/passkeys.ts, one createRoute() config each: the one declaration its routes, the typed client and the OpenAPI document share. */
import { createRoute } from '@hono/zod-openapi';
import { API_KEY_SECURITY, SignIn } from '../schemas/auth.js';
import { envelope, errorResponses, jsonBody, jsonResponse, paramExample } from '../schemas/common.js';
import { SIGN_IN_EXAMPLES as EXAMPLES } from './examples.js';
import { LoginOptionsQuery, LoginVerifyBody, PasskeyOptions, RegisterOptionsBody, RegisterVerifyBody } from '../schemas/passkeys.js';
import type { ApiTag } from './tags.js';

const tags: ApiTag[] = ['Passkey/WebAuthn'];
const security = API_KEY_SECURITY;

export const passkeysOperations = {
  getPasskeyRegistrationOptions: createRoute({
    method: 'post',
    path: '/register-options',
    operationId: 'getPasskeyRegistrationOptions',
    tags,
    security,
    summary: 'Get registration challenge',
    request: jsonBody(RegisterOptionsBody, EXAMPLES.registerOptionsBody),
    responses: { 200: jsonResponse(envelope(PasskeyOptions), 'Creation options and their challenge id', { data: EXAMPLES.registerOptions }) },
  }),
  verifyPasskeyRegistration: createRoute({
    method: 'post',
    path: '/register-verify',
    operationId: 'verifyPasskeyRegistration',
    tags,
    security,
    summary: 'Verify registration',
    request: jsonBody(RegisterVerifyBody, EXAMPLES.registerVerifyBody),
    responses: {
      200: jsonResponse(envelope(SignIn), 'The passkey is stored; the user is signed in', { data: EXAMPLES.signIn }),
      ...errorResponses(404, 409, 410),
    },
  }),
  getPasskeyLoginOptions: createRoute({
    method: 'get',
    path: '/login-options',
    operationId: 'getPasskeyLoginOptions',
    tags,
    security,
    summary: 'Get login challenge',
    request: { query: LoginOptionsQuery.extend({ email: paramExample(LoginOptionsQuery.shape.email, 'email', 'query', EXAMPLES.loginEmail) }) },
    responses: {
      200: jsonResponse(envelope(PasskeyOptions), 'Request options and their challenge id', { data: EXAMPLES.loginOptions }),
      ...errorResponses(404),
    },
  }),
  verifyPasskeyLogin: createRoute({
    method: 'post',
    path: '/login-verify',
    operationId: 'verifyPasskeyLogin',
    tags,
    security,
    summary: 'Verify login',
    request: jsonBody(LoginVerifyBody, EXAMPLES.loginVerifyBody),
    responses: { 200: jsonResponse(envelope(SignIn), 'The user, signed in', { data: EXAMPLES.signIn }), ...errorResponses(404, 410) },
  }),
};
