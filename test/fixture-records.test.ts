/**
 * The fixture's webhooks, guest sessions and passkeys (docs/testing-with-svc.md#fixture-files):
 * seeded under the ids the fixture names and working as ones made through the API (a guest live
 * for its expiresIn from each start and reset, a passkey that signs in with the key pair it was
 * made from, a webhook that hears the events after seeding, signed with its secret); a bad one
 * refused with its path and reason; written by the export and given back by a fresh emulator
 * seeded from it.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assert, cbor, type Authenticator } from '../src/conformance/webauthn.js';
import { tempDataDir } from '../src/test-support/harness.js';
import { startInProcess, type InProcessEmulator } from '../src/test-support/in-process.js';
import { startReceiver, type TestReceiver } from '../src/test-support/receiver.js';
import { verifySignature } from '../src/webhooks/signature.js';

const KEY = 'sk_test_fixtureRecordsKey000000000000001';
const SECRET = 'whsec_fixtureRecordsSecret000000000001';
/** The tenant's default passkey origin and RP ID when it names none and the emulator has no port. */
const ORIGIN = 'http://localhost:4010';
const HOUR = 60 * 60 * 1000;

/** A P-256 key pair as an authenticator holds it, and its public half as the COSE key WebAuthn stores. */
function newPasskey(): { authenticator: Authenticator; publicKey: string } {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = privateKey.export({ format: 'jwk' });
  const cose = cbor(
    new Map<number, number | Buffer>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, Buffer.from(String(jwk.x), 'base64url')],
      [-3, Buffer.from(String(jwk.y), 'base64url')],
    ]),
  );
  return { authenticator: { credentialId: randomBytes(32), privateKey, counter: 0 }, publicKey: cose.toString('base64url') };
}

const { authenticator, publicKey } = newPasskey();
const credentialId = authenticator.credentialId.toString('base64url');

function fixture(webhookUrl: string) {
  return {
    tenants: [
      {
        id: 'ten_fixture000000000001',
        name: 'Fixture Co',
        apiKeys: [{ name: 'default', key: KEY }],
        users: [
          { id: 'usr_fixture000000000001', email: null, trustLevel: 'guest', guestSession: { id: 'gst_fixture000000000001', expiresIn: '2h' } },
          {
            id: 'usr_fixture000000000002',
            email: 'pat@fixture.test',
            name: 'Pat',
            trustLevel: 'basic',
            passkeys: [{ id: 'pky_fixture000000000001', credentialId, publicKey, transports: ['usb'] }],
          },
        ],
        webhooks: [{ id: 'whk_fixture000000000001', url: webhookUrl, events: ['user.created'], description: 'the test receiver', secret: SECRET }],
      },
    ],
  };
}

/** A copy of the fixture with one change made by `edit`. */
function edited(base: ReturnType<typeof fixture>, edit: (tenant: any) => void): unknown {
  const copy = structuredClone(base) as any;
  edit(copy.tenants[0]);
  return copy;
}

let receiver: TestReceiver;
let svc: InProcessEmulator;
let seedFile: string;

beforeAll(async () => {
  receiver = await startReceiver();
  seedFile = join(tempDataDir(), 'fixture.json');
  writeFileSync(seedFile, JSON.stringify(fixture(receiver.url)));
  svc = await startInProcess({ seedFile });
});
afterAll(async () => {
  await svc?.close();
  await receiver?.close();
});

const call = (method: string, path: string, body?: unknown) => svc.request(method, path, { key: KEY, ...(body === undefined ? {} : { body }) });

/** Signs in with the fixture's passkey: login options by e-mail, then the assertion. */
async function passkeyLogin(target: InProcessEmulator) {
  const options = await target.request('GET', '/auth/passkey/login-options?email=pat%40fixture.test', { key: KEY });
  expect(options.status, options.text).toBe(200);
  const { challengeId, options: request } = options.body.data;
  const response = assert(authenticator, { challenge: request.challenge, rpId: request.rpId, origin: ORIGIN });
  return { options: request, verified: await target.request('POST', '/auth/passkey/login-verify', { key: KEY, body: { challengeId, response } }) };
}

describe('seeded records', () => {
  it('opens the guest session at seeding for its expiresIn, and again at a reset after the clock passed it', async () => {
    const guest = await call('GET', '/guests/gst_fixture000000000001');
    expect(guest.status, guest.text).toBe(200);
    expect(guest.body.data).toMatchObject({ id: 'gst_fixture000000000001', status: 'active', userId: 'usr_fixture000000000001', endedAt: null });
    expect(Date.parse(guest.body.data.expiresAt) - Date.parse(guest.body.data.createdAt)).toBe(2 * HOUR);

    expect((await call('POST', '/_emulator/clock/advance', { by: '3h' })).status).toBe(200);
    const expired = await call('GET', '/guests/gst_fixture000000000001');
    expect([expired.status, expired.body.code]).toEqual([410, 'session_expired']);

    const resetAt = svc.emulator.rt.clock.nowMs();
    expect((await call('POST', '/_emulator/reset')).status).toBe(200);
    const again = await call('GET', '/guests/gst_fixture000000000001');
    expect(again.body.data).toMatchObject({ status: 'active' });
    expect(Date.parse(again.body.data.createdAt)).toBeGreaterThanOrEqual(resetAt);
    expect(Date.parse(again.body.data.expiresAt) - Date.parse(again.body.data.createdAt)).toBe(2 * HOUR);
  });

  it('signs the user in with the passkey: its public key verifies the key pair it was made from', async () => {
    const { options, verified } = await passkeyLogin(svc);
    expect(options.allowCredentials).toEqual([{ id: credentialId, type: 'public-key', transports: ['usb'] }]);
    expect(verified.status, verified.text).toBe(200);
    expect(verified.body.data.user).toMatchObject({ id: 'usr_fixture000000000002', email: 'pat@fixture.test' });
    expect(svc.emulator.rt.store.get('passkeys', 'pky_fixture000000000001')).toMatchObject({ counter: 1, userId: 'usr_fixture000000000002' });
  });

  it('delivers nothing at seeding; an event after it reaches the webhook, signed with the fixture secret', async () => {
    const listed = await call('GET', '/webhooks');
    expect(listed.body.data).toEqual([expect.objectContaining({ id: 'whk_fixture000000000001', url: receiver.url, enabled: true })]);
    expect((await call('GET', '/webhooks/whk_fixture000000000001/deliveries')).body.data).toEqual([]);
    expect(receiver.received).toEqual([]);

    expect((await call('POST', '/users', { email: 'new@fixture.test' })).status).toBe(201);
    const [delivery] = await receiver.waitFor(1);
    const headers = delivery!.headers;
    expect(() =>
      verifySignature({
        secret: SECRET,
        body: delivery!.body,
        signature: headers['x-service-signature'] as string,
        timestamp: headers['x-service-timestamp'] as string,
      }),
    ).not.toThrow();
    expect(JSON.parse(delivery!.body.toString('utf8'))).toMatchObject({ type: 'user.created' });
  });
});

describe('bad records', () => {
  const base = fixture('http://127.0.0.1:9/hook');
  const offCurve = Buffer.from(publicKey, 'base64url');
  offCurve[offCurve.length - 1]! ^= 1;

  it.each([
    {
      name: 'a public key off its curve',
      body: edited(base, (t) => (t.users[1].passkeys[0].publicKey = offCurve.toString('base64url'))),
      path: 'tenants.0.users.1.passkeys.0.publicKey',
      message: /node:crypto does not take it as an ES256 public key/,
    },
    {
      name: 'a public key that is no COSE key',
      body: edited(base, (t) => (t.users[1].passkeys[0].publicKey = 'AAAA')),
      path: 'tenants.0.users.1.passkeys.0.publicKey',
      message: /not a COSE public key/,
    },
    {
      name: 'a backed-up single-device passkey',
      body: edited(base, (t) => (t.users[1].passkeys[0].backedUp = true)),
      path: 'tenants.0.users.1.passkeys.0.backedUp',
      message: /multiDevice/,
    },
    {
      name: 'a credential id twice in a tenant',
      body: edited(base, (t) => t.users[1].passkeys.push({ credentialId, publicKey })),
      path: 'tenants.0.users.1.passkeys.1.credentialId',
      message: /repeats/,
    },
    {
      name: "two user handles in one user's passkeys",
      body: edited(base, (t) => {
        t.users[1].passkeys[0].userHandle = 'aGFuZGxlLTE';
        t.users[1].passkeys.push({ credentialId: 'b3RoZXI', publicKey, userHandle: 'aGFuZGxlLTI' });
      }),
      path: 'tenants.0.users.1.passkeys',
      message: /one userHandle/,
    },
    {
      name: 'passkeys of a user with no e-mail',
      body: edited(base, (t) => (t.users[0].passkeys = [{ credentialId: 'b3RoZXI', publicKey }])),
      path: 'tenants.0.users.0.passkeys',
      message: /only a user with an email/,
    },
    {
      name: 'a guest session of a user who is not a guest',
      body: edited(base, (t) => (t.users[1].guestSession = {})),
      path: 'tenants.0.users.1.guestSession',
      message: /only a guest/,
    },
    {
      name: 'a guest session that expires at once',
      body: edited(base, (t) => (t.users[0].guestSession.expiresIn = '0s')),
      path: 'tenants.0.users.0.guestSession.expiresIn',
      message: /longer than zero/,
    },
    {
      name: 'a redacted webhook secret',
      body: edited(base, (t) => (t.webhooks[0].secret = '[redacted]')),
      path: 'tenants.0.webhooks.0.secret',
      message: /whsec_ followed by 32 letters or digits/,
    },
    {
      name: 'a webhook URL that is not http',
      body: edited(base, (t) => (t.webhooks[0].url = 'ftp://127.0.0.1/hook')),
      path: 'tenants.0.webhooks.0.url',
      message: /http or https/,
    },
    {
      name: 'a webhook event no one records',
      body: edited(base, (t) => (t.webhooks[0].events = ['user.teleported'])),
      path: 'tenants.0.webhooks.0.events.0',
      message: /./,
    },
    {
      name: 'an id twice',
      body: edited(base, (t) => t.webhooks.push({ ...t.webhooks[0], secret: undefined })),
      path: 'tenants.0.webhooks.1.id',
      message: /repeats tenants\.0\.webhooks\.0\.id/,
    },
  ])('refuses $name: 400 naming the field', async ({ body, path, message }) => {
    const answer = await svc.request('POST', '/_emulator/seed', { key: null, body });
    expect(answer.status, answer.text).toBe(400);
    const detail = (answer.body.details as Array<{ path: string; message: string }>).find((entry) => entry.path === path);
    expect(detail, answer.text).toBeDefined();
    expect(detail!.message).toMatch(message);
  });
});

describe('export', () => {
  it('writes them with their ids, and a fresh emulator seeded from the export gives them back', async () => {
    const exported = await svc.request('GET', '/_emulator/export?tenant=ten_fixture000000000001', { key: null });
    expect(exported.status, exported.text).toBe(200);
    const [tenant] = exported.body.data.fixture.tenants;
    expect(tenant.webhooks).toEqual([
      {
        id: 'whk_fixture000000000001',
        url: receiver.url,
        events: ['user.created'],
        description: 'the test receiver',
        enabled: true,
        secret: SECRET,
        createdAt: expect.any(String),
      },
    ]);
    const [guest, pat] = tenant.users;
    expect(guest.guestSession).toEqual({ id: 'gst_fixture000000000001', expiresIn: expect.any(String) });
    expect(pat.passkeys).toEqual([expect.objectContaining({ id: 'pky_fixture000000000001', credentialId, publicKey, counter: 1, transports: ['usb'] })]);
    // Pat's sign-in session and the user.created event are not the format's; the guest's session is made anew.
    expect(exported.body.data.leftOut).toMatchObject({ sessions: 1, events: 1 });

    const file = join(tempDataDir(), 'exported.json');
    writeFileSync(file, JSON.stringify(exported.body.data.fixture));
    const copy = await startInProcess({ seedFile: file });
    try {
      // The guest's expiresIn is the time it had left, counted again from the copy's start.
      const again = (await copy.request('GET', '/_emulator/export', { key: null })).body.data.fixture;
      const withoutExpiry = (fixtureData: any) => {
        const clone = structuredClone(fixtureData);
        delete clone.tenants[0].users[0].guestSession.expiresIn;
        return clone;
      };
      expect(withoutExpiry(again)).toEqual(withoutExpiry(exported.body.data.fixture));
      const guestView = await copy.request('GET', '/guests/gst_fixture000000000001', { key: KEY });
      expect(guestView.body.data).toMatchObject({ id: 'gst_fixture000000000001', status: 'active', userId: 'usr_fixture000000000001' });
      // The counter goes on from where it was: the authenticator's next assertion (2) passes.
      const { verified } = await passkeyLogin(copy);
      expect(verified.status, verified.text).toBe(200);
      expect(copy.emulator.rt.store.get('passkeys', 'pky_fixture000000000001')?.counter).toBe(2);
    } finally {
      await copy.close();
    }
  });
});
