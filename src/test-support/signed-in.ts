/**
 * Test helpers for the calls that act for a user (D4): a user made through POST /users with a
 * session opened on the real store, its wallet claimed over HTTP, and MFA turned on with codes
 * from the otpauth library.
 */
import { Secret, TOTP } from 'otpauth';
import { openSession } from '../services/sessions.js';
import type { UserRecord } from '../store/records.js';
import { ACME_KEY } from './harness.js';
import type { ApiHarness } from './in-process.js';

export interface SignedInUser {
  user: UserRecord;
  key: string;
  /** `authorization: Bearer st_…` */
  headers: Record<string, string>;
}

let counter = 0;

/** Creates a user with POST /users (so `user.created` fires) and opens a session for it. */
export async function signIn(svc: ApiHarness, key = ACME_KEY): Promise<SignedInUser> {
  const email = `signed-in-${Date.now()}-${counter++}@example.com`;
  const created = await svc.request('POST', '/users', { key, body: { email } });
  if (created.status !== 201) throw new Error(`POST /users answered ${created.status}: ${created.text}`);
  const { rt } = svc.emulator;
  const user = rt.store.get('users', created.body.data.id)!;
  const { grant } = await rt.store.write(() => openSession(rt, user, 'passkey', 24 * 60 * 60 * 1000));
  return { user, key, headers: { authorization: `Bearer ${grant.token}` } };
}

/** Calls the API as the signed-in user (its key and session token). */
export function asUser(svc: ApiHarness, who: SignedInUser) {
  return (method: string, path: string, body?: unknown) =>
    svc.request(method, path, { key: who.key, headers: who.headers, ...(body === undefined ? {} : { body }) });
}

/** Claims the user's wallet: `{ id, partyId, publicKey, deviceShare, recoveryShare, … }`. */
export async function claimWallet(svc: ApiHarness, who: SignedInUser) {
  const res = await asUser(svc, who)('POST', '/users/me/wallet', {});
  if (res.status !== 201) throw new Error(`POST /users/me/wallet answered ${res.status}: ${res.text}`);
  return res.body.data as { id: string; userId: string; partyId: string; publicKey: string; createdAt: string; deviceShare: string; recoveryShare: string };
}

/** Turns MFA on for the user; `verify()` makes the session MFA-fresh with a current code. */
export async function enableMfa(svc: ApiHarness, who: SignedInUser) {
  const call = asUser(svc, who);
  const setup = await call('POST', '/mfa/setup', {});
  const totp = new TOTP({ secret: Secret.fromBase32(setup.body.data.secret), algorithm: 'SHA1', digits: 6, period: 30 });
  const code = () => totp.generate({ timestamp: svc.emulator.rt.clock.nowMs() });
  const enabled = await call('POST', '/mfa/verify-setup', { code: code() });
  if (enabled.status !== 200) throw new Error(`verify-setup answered ${enabled.status}: ${enabled.text}`);
  return {
    async verify() {
      const challenge = await call('POST', '/mfa/challenge', {});
      const verified = await call('POST', '/mfa/verify', { challengeId: challenge.body.data.challengeId, code: code() });
      if (verified.status !== 200) throw new Error(`verify answered ${verified.status}: ${verified.text}`);
    },
  };
}
