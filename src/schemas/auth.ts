/** What every sign-in flow answers (D4): the user and the session token. */
import { z } from '@hono/zod-openapi';
import { secret } from './secret.js';
import { IsoTimestamp } from './common.js';
import { User } from './users.js';

export const SessionGrant = z
  .object({
    token: secret(z.string().regex(/^st_[0-9A-Za-z]{32}$/)).openapi({ description: 'Send as Authorization: Bearer <token>, with x-api-key' }),
    expiresAt: IsoTimestamp,
  })
  .openapi('SessionGrant');

export const SignIn = z.object({ user: User, session: SessionGrant }).openapi('SignIn');

/** Operation security: every /v1 route but health and the document needs the key (D3). */
export const API_KEY_SECURITY = [{ ApiKeyAuth: [] }];

/** `Authorization: Bearer <session token>` for OpenAPI (the session middleware checks it). */
export const SESSION_SECURITY = [{ ApiKeyAuth: [], SessionAuth: [] }];

/** Answers that carry a token or secret are never stored by caches. */
export const NO_STORE = { 'cache-control': 'no-store' } as const;
