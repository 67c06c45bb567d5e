/** MFA (spec part 4; D5, D15). */
import { z } from '@hono/zod-openapi';
import { secret } from './secret.js';
import { IsoTimestamp, idOf } from './common.js';

export const MfaSetup = z
  .object({
    secret: secret(z.string().regex(/^[A-Z2-7]+=*$/)).openapi({ description: 'The TOTP secret, base32' }),
    otpauthUrl: secret(z.string().startsWith('otpauth://totp/')).openapi({ description: 'The TOTP secret as an otpauth URL' }),
    qrCode: secret(z.string().startsWith('data:image/png;base64,')).openapi({ description: 'The otpauth URL as a QR code (PNG data URL)' }),
  })
  .openapi('MfaSetup');

/** A TOTP code, or (to verify) a one-time recovery code: either lets its holder pass MFA. */
const Code = secret(z.string().trim().min(6).max(32)).openapi({ example: '123456' });

export const VerifySetupBody = z.object({ code: Code }).openapi('MfaVerifySetup');

export const MfaEnabled = z
  .object({
    enabled: z.literal(true),
    recoveryCodes: z.array(secret(z.string())).openapi({ description: 'Ten one-time codes, shown only here' }),
  })
  .openapi('MfaEnabled');

export const MfaChallenge = z.object({ challengeId: idOf('mfc'), expiresAt: IsoTimestamp }).openapi('MfaChallenge');

export const VerifyBody = z
  .object({ challengeId: z.string().min(1).max(100), code: Code.openapi({ description: 'A TOTP code or a recovery code' }) })
  .openapi('MfaVerify');

export const MfaVerified = z.object({ verified: z.literal(true), freshUntil: IsoTimestamp }).openapi('MfaVerified');

export const MfaStatus = z
  .object({
    enabled: z.boolean(),
    freshUntil: IsoTimestamp.nullable(),
    locked: z.boolean(),
    recoveryCodesRemaining: z.number().int().min(0),
  })
  .openapi('MfaStatus');

export const MfaDisabled = z.object({ enabled: z.literal(false) }).openapi('MfaDisabled');
