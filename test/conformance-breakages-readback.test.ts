/**
 * Every effect read back (docs/conformance.md#every-effect-read-back), each kind broken: a
 * proxy in front of the emulator answers a write as if it had taken effect, and keeps or shows
 * something else — a field not stored, a field the listing drops, an update not applied, a
 * delete answered but not done, a listed state that disagrees with the record's GET, a count
 * that moves wrong, a time that does not hold on the emulator clock — and the check that reads
 * the effect back fails, naming the rule.
 */
import { describe } from 'vitest';
import { breakageTarget, itFailsOnEach, is, json, onOk, onStatus, type BreakageCase as Case, type Body } from '../src/test-support/breakage-run.js';
import type { ProxiedRequest } from '../src/test-support/broken-server.js';
import { ACME_KEY } from '../src/test-support/harness.js';

const target = breakageTarget();
/** What a breakage keeps between requests (a PATCH body, the ids it deleted), reset before each case. */
let memory: Record<string, unknown> = {};
const JSON_HEADERS = { 'content-type': 'application/json' };
const APP = /^\/v1\/apps\/(app_\w+)$/;
const deleted = (): Set<string> => (memory['deleted'] ??= new Set<string>()) as Set<string>;
/** The emulator clock's now, in ms: a breakage that ends a record early judges by it. */
const emulatorNow = (): number => target.svc().emulator.rt.clock.nowMs();
/** A DELETE of an app answered as done, and not sent on: the app stays. */
const deleteNotDone = (q: ProxiedRequest) => {
  const id = is(q, 'DELETE', APP) ? APP.exec(q.path.split('?')[0]!)![1]! : undefined;
  if (id === undefined) return undefined;
  deleted().add(id);
  return { status: 204, headers: {}, body: '' };
};
const shiftedIso = (iso: string, ms: number): string => new Date(Date.parse(iso) + ms).toISOString();

const CASES: Case[] = [
  // A field a create sent is not stored: the creation answer echoes it, GET reads something else.
  {
    name: "a new app's description is not stored",
    breakage: { response: onOk('GET', APP, (b) => void (b['data'].description = null)) },
    failing: 'apps.create-201',
    rule: 'D15: GET /apps/:id reads back what POST /apps sent: description reads null, sent "conformance"',
  },
  {
    name: "a new user's name is not stored",
    breakage: { response: onOk('GET', /^\/v1\/users\/usr_\w+$/, (b) => void (b['data'].name = null)) },
    failing: 'users.create-201',
    rule: 'D15: GET /users/:id reads back what POST /users sent: name reads null',
  },
  {
    name: 'the user a passkey registration made is stored without the name register-options sent',
    breakage: { response: onOk('GET', /^\/v1\/users\/usr_\w+$/, (b) => void (b['data'].name = null)) },
    failing: 'passkeys.register',
    rule: 'D15: GET /users/:id reads the user register-options named: name reads null',
  },
  {
    name: 'PATCH /tenant answers the bot username and does not keep it',
    breakage: { response: onOk('GET', /^\/v1\/tenant$/, (b) => void (b['data'].settings.telegram.botUsername = 'conf_stale_bot')) },
    failing: 'telegram.sign-in',
    rule: 'D3: GET /tenant reads back the Telegram settings PATCH sent: botUsername reads "conf_stale_bot"',
  },
  // A field missing from the listing.
  {
    name: 'the app listing drops allowedOrigins',
    breakage: { response: onOk('GET', /^\/v1\/apps\?/, (b) => b['data'].forEach((a: Body) => void delete a['allowedOrigins'])) },
    failing: 'apps.create-201',
    rule: 'D7/D15: the listing holds the new app with what POST /apps sent: allowedOrigins reads undefined',
  },
  {
    name: "the key listing shows another key's name",
    breakage: { response: onOk('GET', /^\/v1\/api-keys$/, (b) => b['data'].forEach((k: Body) => void (k['name'] = 'ci'))) },
    failing: 'api-keys.shape',
    rule: 'D3/D15: the listing holds the new key with the name POST sent and what its creation answered: name reads "ci"',
  },
  {
    name: 'the user listing leaves a converted guest without its e-mail',
    breakage: { response: onOk('GET', /^\/v1\/users\?/, (b) => b['data'].forEach((u: Body) => void (u['email'] = null))) },
    failing: 'guests.convert',
    rule: 'D7/D15: the listing holds the converted user with the e-mail it was given: email reads null',
  },
  // An update answered but not applied.
  {
    name: 'PATCH /apps/:id answers the change and stores nothing',
    breakage: {
      request: (q) => {
        if (!is(q, 'PATCH', APP)) return undefined;
        memory['patch'] = JSON.parse(q.body) as Body;
        const headers = Object.fromEntries(Object.entries(q.headers).filter(([name]) => name !== 'content-length'));
        return { ...q, headers, body: '{}' };
      },
      response: onOk('PATCH', APP, (b) => void Object.assign(b['data'], memory['patch'])),
    },
    failing: 'apps.update',
    rule: 'D15: GET /apps/:id reads what PATCH set and what it kept: name reads',
  },
  {
    name: 'a conversion answers the e-mail and the user keeps none',
    breakage: { response: onOk('GET', /^\/v1\/users\/usr_\w+$/, (b) => void Object.assign(b['data'], { email: null, trustLevel: 'guest' })) },
    failing: 'guests.convert',
    rule: 'D15: GET /users/:id reads the user as the conversion left it: email reads null',
  },
  // A delete answered but not done.
  {
    name: 'DELETE /apps/:id answers 204 and the app stays',
    breakage: { request: deleteNotDone },
    failing: 'apps.delete',
    rule: 'part 4/7: a deleted app is not found (404): expected HTTP 404, got 200',
  },
  {
    name: 'DELETE /apps/:id answers 204, GET says 404, and the app stays listed',
    breakage: {
      request: (q) => {
        const done = deleteNotDone(q);
        if (done !== undefined) return done;
        const id = is(q, 'GET', APP) ? APP.exec(q.path)![1]! : undefined;
        return id !== undefined && deleted().has(id)
          ? { status: 404, headers: JSON_HEADERS, body: `{"error":"app ${id} not found","code":"not_found","details":[]}` }
          : undefined;
      },
    },
    failing: 'apps.delete',
    rule: 'part 4: a deleted app is not listed',
  },
  {
    name: 'a revoked key is still accepted',
    breakage: {
      request: (q) => {
        if (is(q, 'DELETE', /^\/v1\/api-keys\/key_/)) memory['revokedAt'] = Date.now();
        // The key the check revoked is any key but Acme's: after a revocation, it is still served.
        const key = q.headers['x-api-key'];
        return memory['revokedAt'] !== undefined && is(q, 'GET', /^\/v1\/tenant$/) && key !== undefined && key !== ACME_KEY
          ? { status: 200, headers: JSON_HEADERS, body: '{"data":{}}' }
          : undefined;
      },
    },
    failing: 'api-keys.listed-state',
    rule: 'D3: a key listed revoked is refused (401): GET /tenant with it answered 200',
  },
  {
    name: 'DELETE /mfa answers off and MFA stays on',
    breakage: {
      request: (q) => {
        if (!is(q, 'DELETE', /^\/v1\/mfa$/)) return undefined;
        // The check's first is refused (no longer fresh); the second, with a fresh session, turns MFA off.
        memory['disables'] = ((memory['disables'] as number | undefined) ?? 0) + 1;
        return memory['disables'] === 2 ? { status: 200, headers: JSON_HEADERS, body: '{"data":{"enabled":false}}' } : undefined;
      },
    },
    failing: 'mfa.required-403',
    rule: 'D5: MFA is off after DELETE /mfa: status says enabled',
  },
  // A state a listing or a GET shows that disagrees with the record's state.
  {
    name: "the user listing's trust_level filter leaves out a user of that level",
    breakage: { response: onOk('GET', /^\/v1\/users\?.*trust_level=verified/, (b) => void (b['data'] = [])) },
    failing: 'users.trust-level-read',
    rule: "D7: the listing's trust_level filter finds the user under the level it reports: not listed under verified",
  },
  {
    name: 'an ended guest session is said to be expired',
    breakage: { response: onStatus(410, 'GET', /^\/v1\/guests\/gst_/, (b) => b['details'].forEach((d: Body) => void (d['status'] = 'expired'))) },
    failing: 'guests.ended-codes',
    rule: 'D4/D15: the 410 of a guest session names the state it has (ended)',
  },
  {
    name: 'the key listing shows a revokedAt other than the revocation answered',
    breakage: {
      response: onOk('GET', /^\/v1\/api-keys$/, (b) =>
        b['data'].forEach((k: Body) => void (k['revokedAt'] = k['revokedAt'] === null ? null : shiftedIso(k['revokedAt'], -60_000))),
      ),
    },
    failing: 'api-keys.listed-state',
    rule: 'D15: the listing reports the revokedAt the revocation answered',
  },
  // A count that moves by other than what the run did.
  {
    name: 'the count of apps by name does not drop when one is deleted',
    breakage: {
      response: (q, r) => {
        if (is(q, 'DELETE', APP) && r.status === 200) memory['deletedOne'] = true;
        return memory['deletedOne'] === true && is(q, 'GET', /^\/v1\/apps\?/) && r.status === 200 ? json(r, (b) => void (b['total'] += 1)) : undefined;
      },
    },
    failing: 'apps.delete-answer',
    rule: 'D7: the count of apps by the name moves by exactly what the run did (after the delete): total 1, not 0',
  },
  {
    name: 'a spent recovery code is still counted',
    breakage: { response: onOk('GET', /^\/v1\/mfa\/status/, (b) => void (b['data'].recoveryCodesRemaining = b['data'].enabled ? 10 : 0)) },
    failing: 'mfa.required-403',
    rule: 'D5: a recovery code is used once: the count left moves by exactly one: 10 remaining of 10',
  },
  {
    name: 'a bulk cleanup counts one session more than it ended',
    breakage: { response: onOk('POST', /^\/v1\/guests\/cleanup/, (b) => void (b['data'].expired += 1)) },
    failing: 'guests.cleanup',
    rule: 'part 3.4: cleanup counts exactly the sessions it ended: expired 3, 2 were older',
  },
  {
    name: 'two Telegram sign-ins of one account make two users',
    breakage: { response: onOk('GET', /^\/v1\/users$/, (b) => void (b['total'] = 2)) },
    failing: 'telegram.sign-in',
    rule: 'part 4: two sign-ins of one Telegram account make one user: the tenant lists 2 users',
  },
  // A time a record reports that the behaviour does not keep, on the emulator clock.
  {
    name: 'a guest session ends 10 s before the expiresAt it reports',
    breakage: {
      response: (q, r) => {
        if (!(is(q, 'GET', /^\/v1\/guests\/gst_/) && r.status === 200)) return undefined;
        const { expiresAt } = (JSON.parse(r.body) as Body)['data'] as { expiresAt: string };
        return Date.parse(expiresAt) - emulatorNow() <= 10_000
          ? { status: 410, headers: JSON_HEADERS, body: '{"error":"ended","code":"session_expired","details":[{"status":"expired"}]}' }
          : undefined;
      },
    },
    failing: 'guests.cleanup',
    rule: 'a session is active until its expiresAt (emulator clock): the newer session is not active 5 s before its expiresAt',
  },
  {
    name: 'an MFA challenge reports an expiresAt a minute later than it ends',
    breakage: { response: onOk('POST', /^\/v1\/mfa\/challenge$/, (b) => void (b['data'].expiresAt = shiftedIso(b['data'].expiresAt, 60_000))) },
    failing: 'mfa.challenge-expiry',
    rule: 'part 3.3/D5: a challenge is answered until its expiresAt on the emulator clock: expected HTTP 200, got 410',
  },
  {
    name: 'MFA verify reports a freshUntil a minute later than freshness ends',
    breakage: { response: onOk('POST', /^\/v1\/mfa\/verify$/, (b) => void (b['data'].freshUntil = shiftedIso(b['data'].freshUntil, 60_000))) },
    failing: 'mfa.required-403',
    rule: 'D5: the session is MFA-fresh until the freshUntil verify answered',
  },
];

describe('the conformance suite reads every effect back, and fails each kind of effect not kept', () => {
  itFailsOnEach(target, CASES, () => {
    memory = {};
  });
});
