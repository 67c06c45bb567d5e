/** /v1/auth/passkey: register-options, register-verify, login-options, login-verify. */
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { passkeysOperations } from '../operations/passkeys.js';
import type { Runtime } from '../runtime.js';
import { NO_STORE } from '../schemas/auth.js';
import { authenticationOptions, registrationOptions, verifyAuthentication, verifyRegistration } from '../services/passkeys.js';
import { signInView } from '../services/sessions.js';
import { newRouter } from './router.js';

export function passkeysRoutes(rt: Runtime) {
  return newRouter()
    .openapi(passkeysOperations.getPasskeyRegistrationOptions, async (c) =>
      c.json({ data: await registrationOptions(rt, c.get('tenant'), c.req.valid('json')) }, 200, NO_STORE),
    )
    .openapi(passkeysOperations.verifyPasskeyRegistration, async (c) => {
      const { challengeId, response } = c.req.valid('json');
      // The schema checked the shape; the transports' names are the library's to judge.
      const { user, session } = await verifyRegistration(rt, c.get('tenant'), challengeId, response as RegistrationResponseJSON);
      return c.json({ data: signInView(user, session) }, 200, NO_STORE);
    })
    .openapi(passkeysOperations.getPasskeyLoginOptions, async (c) =>
      c.json({ data: await authenticationOptions(rt, c.get('tenant'), c.req.valid('query').email) }, 200, NO_STORE),
    )
    .openapi(passkeysOperations.verifyPasskeyLogin, async (c) => {
      const { challengeId, response } = c.req.valid('json');
      const { user, session } = await verifyAuthentication(rt, c.get('tenant'), challengeId, response as AuthenticationResponseJSON);
      return c.json({ data: signInView(user, session) }, 200, NO_STORE);
    });
}
