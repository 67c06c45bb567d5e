/** Passkey/WebAuthn (spec part 4; D15): options with a challenge id, then the credential JSON. */
import { z } from '@hono/zod-openapi';
import { Email } from './users.js';

const Base64Url = z
  .string()
  .min(1)
  .max(65_536)
  .regex(/^[A-Za-z0-9_-]+={0,2}$/, 'base64url');

export const RegisterOptionsBody = z.object({ email: Email, name: z.string().trim().min(1).max(200).optional() }).openapi('PasskeyRegisterOptions');

export const LoginOptionsQuery = z.object({
  email: Email.optional().openapi({ param: { name: 'email', in: 'query' }, description: 'Only the passkeys of this user; omit for a discoverable login' }),
});

export const PasskeyOptions = z
  .object({
    challengeId: z.string().openapi({ description: 'Send it back with the response; single use, 5 minutes' }),
    // z.json() is recursive, and zod-to-openapi recursed without end on it: /v1/openapi.json answered 500.
    options: z.record(z.string(), z.unknown()).openapi({ description: 'WebAuthn options JSON for navigator.credentials.create() or .get()' }),
  })
  .openapi('PasskeyOptions');

const CredentialBase = {
  id: Base64Url,
  rawId: Base64Url,
  type: z.literal('public-key'),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
  authenticatorAttachment: z
    .enum(['platform', 'cross-platform'])
    .nullish()
    .transform((value) => value ?? undefined),
};

/** RegistrationResponseJSON (WebAuthn Level 3), as PublicKeyCredential.toJSON() gives it. */
export const RegistrationCredential = z
  .object({
    ...CredentialBase,
    response: z.object({
      clientDataJSON: Base64Url,
      attestationObject: Base64Url,
      transports: z.array(z.string().max(32)).max(16).optional(),
    }),
  })
  .openapi('RegistrationCredential');

/** AuthenticationResponseJSON (WebAuthn Level 3). */
export const AuthenticationCredential = z
  .object({
    ...CredentialBase,
    response: z.object({
      clientDataJSON: Base64Url,
      authenticatorData: Base64Url,
      signature: Base64Url,
      userHandle: Base64Url.nullish().transform((value) => value ?? undefined),
    }),
  })
  .openapi('AuthenticationCredential');

/** WebAuthn options as plain JSON (what the browser's parse*OptionsFromJSON() takes). */
export type OptionsJson = Record<string, z.infer<ReturnType<typeof z.json>>>;

export const RegisterVerifyBody = z.object({ challengeId: z.string().min(1).max(100), response: RegistrationCredential }).openapi('PasskeyRegisterVerify');
export const LoginVerifyBody = z.object({ challengeId: z.string().min(1).max(100), response: AuthenticationCredential }).openapi('PasskeyLoginVerify');
