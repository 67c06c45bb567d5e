/**
 * Guest sessions and user sessions (spec part 3.3–3.4, 4, 5.5; D4, D15): create, read,
 * expire (then 410), convert to a user, bulk cleanup, and the session token rules.
 */
import type { ApiResult } from '../../client/index.js';
import { parseDuration } from '../../duration.js';
import { envelope } from '../../schemas/common.js';
import { Tenant } from '../../schemas/tenant.js';
import { User } from '../../schemas/users.js';
import { CleanupResult, ConvertedGuest, CreatedGuest, Guest } from '../../schemas/guests.js';
import { expect, expectShape, expectStatus } from '../expect.js';
import { expectError, expectErrorCode, expectSuccess } from '../shapes.js';
import type { Check } from '../types.js';
import { advanceClock, emulatorNow, expectClockTimes, guestSession, HOLDS_SESSION, stepJustPast, stepToJustBefore } from './sessions.js';
import { RUN_SESSION_SETTINGS } from './settings.js';
import { createUser, EVENTS_LOOKED_AT, expectReadBack, missingId, ownTenant, searchListing } from './support.js';

/** A 410 for a guest session names in `details` the status it has (D4, D15): ended, converted or expired. */
function expectGoneAs(result: ApiResult<unknown>, status: 'ended' | 'converted' | 'expired'): void {
  const details = (result.body as { details?: Array<{ status?: unknown }> } | undefined)?.details ?? [];
  expect(
    details.some((d) => d.status === status),
    `D4/D15: the 410 of a guest session names the state it has (${status})`,
    `details ${JSON.stringify(details)}`,
    result,
  );
}

export const guestChecks: Check[] = [
  {
    id: 'guests.create',
    tags: ['guests'],
    description: 'POST /guests creates a guest session that GET /guests/:id answers, in the success envelope',
    spec: 'part 4 (Guest sessions), part 5.5',
    profile: 'spec',
    creates: true,
    uses: HOLDS_SESSION,
    run: async (ctx) => {
      const guest = await guestSession(ctx);
      const read = await ctx.client.request('GET', `/guests/${guest.guestId}`);
      const data = expectSuccess(read, 200, 'part 4: get guest session');
      expect(data['id'] === guest.guestId, 'part 4: GET /guests/:id answers that session', `data.id is ${JSON.stringify(data['id'])}`, read);
      // The state the run gave it (D15 names the field): a session just made is active.
      if (ctx.profile === 'emulator')
        expect(data['status'] === 'active', 'D15: a new guest session is read active', `status ${JSON.stringify(data['status'])}`, read);
    },
  },
  {
    id: 'guests.expired-410',
    tags: ['guests'],
    description: 'a guest session expired with DELETE /guests/:id is answered 410',
    spec: 'part 3.3, 3.4, part 7 (410)',
    profile: 'spec',
    creates: true,
    uses: HOLDS_SESSION,
    readsBack: ['expireGuest'],
    run: async (ctx) => {
      const guest = await guestSession(ctx);
      expectStatus(await ctx.client.request('DELETE', `/guests/${guest.guestId}`), [200, 204], 'part 3.4: guest sessions can be expired singly (DELETE)');
      expectError(await ctx.client.request('GET', `/guests/${guest.guestId}`), 410, 'part 3.3: an expired resource is answered with HTTP 410');
    },
  },
  {
    id: 'guests.unknown-id',
    tags: ['guests'],
    description: 'GET and DELETE /guests/:id of an id that does not exist are 404',
    spec: 'part 7 (404)',
    profile: 'spec',
    creates: false,
    run: async (ctx) => {
      const id = missingId(ctx, 'gst');
      expectError(await ctx.client.request('GET', `/guests/${id}`), 404, 'part 7: an unknown guest session is 404');
      expectError(await ctx.client.request('DELETE', `/guests/${id}`), 404, 'part 7: an unknown guest session is 404');
    },
  },
  {
    id: 'guests.shape',
    tags: ['guests'],
    description:
      'POST /guests answers 201 with id, status active, expiresAt (guestTtl on), a guest user and a session token st_…; GET reads the session and its user back',
    spec: 'D4, D15',
    profile: 'emulator',
    creates: true,
    uses: HOLDS_SESSION,
    readsBack: ['createGuest'],
    run: async (ctx) => {
      const guest = await guestSession(ctx);
      expectStatus(guest.result, 201, 'part 7/D15: create → 201 Created');
      const { data } = expectShape(guest.result, envelope(CreatedGuest), 'D4/D15: the guest session fields');
      expect(
        data.status === 'active' && data.user.trustLevel === 'guest',
        'D15: a new guest is active and its user a guest',
        `${data.status} ${data.user.trustLevel}`,
        guest.result,
      );
      const ttl = parseDuration(RUN_SESSION_SETTINGS.guestTtl)!;
      expect(
        Date.parse(data.expiresAt) - Date.parse(data.createdAt) === ttl,
        "D3: a guest session expires the tenant's guestTtl after it was made",
        `createdAt ${data.createdAt}, expiresAt ${data.expiresAt}, guestTtl ${RUN_SESSION_SETTINGS.guestTtl}`,
        guest.result,
      );
      // Kept, not only answered: GET reads the session as made, GET /users/:id its user, and its token acts.
      const read = await ctx.client.guests.get(guest.guestId);
      const got = expectShape(read, envelope(Guest), 'D15: GET /guests/:id answers the session (without its token)').data;
      const { user, session: _token, ...stored } = data;
      expectReadBack(got, stored, 'D15: GET /guests/:id reads the session its creation answered', read);
      const userRead = await ctx.client.users.get(guest.userId);
      expectReadBack(
        expectShape(userRead, envelope(User), 'D15: GET /users/:id').data,
        user,
        "D15: GET /users/:id reads the guest's user its creation answered",
        userRead,
      );
      expectStatus(await ctx.client.mfa.status(guest.token), 200, "D4: the new guest session's token acts for its user");
    },
  },
  {
    id: 'guests.ended-codes',
    tags: ['guests', 'sessions'],
    description: 'an ended guest session is 410 session_expired, and so is its token',
    spec: 'D4, D6',
    profile: 'emulator',
    creates: true,
    uses: HOLDS_SESSION,
    readsBack: ['expireGuest'],
    run: async (ctx) => {
      const guest = await guestSession(ctx);
      const ended = await ctx.client.guests.expire(guest.guestId);
      const { data } = expectShape(ended, envelope(Guest), 'D15: DELETE answers the ended session');
      expect(
        data.status === 'ended' && data.endedAt !== null,
        'D15: DELETE answers the session ended, with endedAt',
        `status ${data.status}, endedAt ${data.endedAt}`,
        ended,
      );
      const read = await ctx.client.guests.get(guest.guestId);
      expectErrorCode(read, 410, 'session_expired', 'D4: an ended session is 410 session_expired');
      expectGoneAs(read, 'ended');
      expectErrorCode(await ctx.client.mfa.status(guest.token), 410, 'session_expired', "D4: an ended session's token is 410 session_expired");
    },
  },
  {
    id: 'guests.convert',
    tags: ['guests', 'users'],
    description:
      'POST /guests/:id/convert makes the guest a basic user with the e-mail, as GET and the listing read it; the guest session is 410; announces user.created',
    spec: 'part 3.4, D8, D15',
    profile: 'emulator',
    creates: true,
    uses: HOLDS_SESSION,
    readsBack: ['convertGuest'],
    run: async (ctx) => {
      const guest = await guestSession(ctx);
      const email = ctx.email('converted');
      const name = `Converted ${ctx.runId}`;
      const result = await ctx.client.guests.convert(guest.guestId, { email, name });
      expectStatus(result, 200, 'part 3.4: guests can be converted into a user');
      const { data } = expectShape(result, envelope(ConvertedGuest), 'D15: convert answers { user, session, guest }');
      expect(
        data.user.id === guest.userId && data.user.email === email && data.user.trustLevel === 'basic',
        'D15: the same user, now basic with the e-mail',
        `${data.user.id} ${data.user.email} ${data.user.trustLevel}`,
        result,
      );
      // Kept, not only answered: the user reads and lists as converted, the guest session is gone, its token with it.
      const stored = { id: guest.userId, email, name, trustLevel: 'basic' };
      const read = await ctx.client.users.get(guest.userId);
      expectReadBack(
        expectShape(read, envelope(User), 'D15: GET /users/:id').data,
        stored,
        'D15: GET /users/:id reads the user as the conversion left it',
        read,
      );
      const listed = await searchListing(ctx, '/users', email, guest.userId);
      expectReadBack(listed.item, stored, 'D7/D15: the listing holds the converted user with the e-mail it was given', listed.result);
      const gone = await ctx.client.guests.get(guest.guestId);
      expectErrorCode(gone, 410, 'session_expired', 'part 3.3/D4: a converted guest session is 410 session_expired');
      expectGoneAs(gone, 'converted');
      expectErrorCode(await ctx.client.mfa.status(guest.token), 410, 'session_expired', "D4: a converted guest session's token is 410 session_expired");
      expectStatus(await ctx.client.mfa.status(data.session.token), 200, 'D4: the session the conversion answered acts for the user');
      const events = await ctx.client.emulator.events({ type: 'user.created', limit: EVENTS_LOOKED_AT });
      expect(
        events.ok && events.body.data.some((e) => JSON.stringify(e['data']).includes(guest.userId)),
        'D8: a guest conversion emits user.created',
        'no user.created for the converted guest',
        events,
      );
    },
  },
  {
    id: 'guests.convert-duplicate',
    tags: ['guests', 'users'],
    description: 'converting a guest with an e-mail another user has is 409 conflict',
    spec: 'part 7 (409), D6',
    profile: 'emulator',
    creates: true,
    uses: HOLDS_SESSION,
    run: async (ctx) => {
      const user = await createUser(ctx, 'taken');
      const guest = await guestSession(ctx);
      expectErrorCode(await ctx.client.guests.convert(guest.guestId, { email: user.email }), 409, 'conflict', 'D6: a taken e-mail is 409 conflict');
    },
  },
  {
    id: 'guests.cleanup',
    tags: ['guests', 'clock'],
    description:
      'in a tenant of its own with guestTtl set to 2m: POST /guests/cleanup {olderThan} ends exactly the sessions older than that and answers their count; a newer one stays active until its expiresAt on the emulator clock; a bad duration is 400',
    spec: 'part 3.3, part 3.4 (bulk expire), D3, D10, D15',
    profile: 'emulator',
    creates: true,
    uses: { clock: 'steps', why: "steps the clock 30 s between guest sessions, then past the newer one's expiresAt (2 minutes)" },
    readsBack: ['cleanupGuests', 'createGuest', 'updateTenant'],
    run: async (ctx) => {
      // A tenant of its own: a bulk cleanup there ends only sessions the check made, and its guestTtl can be short.
      const own = await ownTenant(ctx, 'guests');
      expectStatus(await own.tenant.update({ settings: { guestTtl: '2m' } }), 200, 'D3: PATCH /tenant sets guestTtl');
      const guest = async () => expectShape(await own.guests.create(), envelope(CreatedGuest), 'D15: POST /guests answers the session').data;
      // The settings are read back while the older sessions are made: both follow the PATCH, neither changes the settings.
      const [tenant, ...older] = await Promise.all([own.tenant.get(), guest(), guest()]);
      expectReadBack(
        expectShape(tenant, envelope(Tenant), 'D15: GET /tenant').data.settings,
        { guestTtl: '2m' },
        'D3: GET /tenant reads the guestTtl PATCH set',
        tenant,
      );
      // Past olderThan (20 s) for the older sessions, and far from their guestTtl (2 minutes).
      await advanceClock(ctx, '30s', '90s');
      const newer = await guest();
      expect(
        Date.parse(newer.expiresAt) - Date.parse(newer.createdAt) === 120_000,
        'D3: a guest session lives the guestTtl PATCH /tenant set',
        `createdAt ${newer.createdAt}, expiresAt ${newer.expiresAt}`,
      );

      const result = await own.guests.cleanup({ olderThan: '20s' });
      expectStatus(result, 200, 'part 3.4: bulk expire');
      const { data } = expectShape(result, envelope(CleanupResult), 'D15: cleanup answers { expired }');
      expect(
        data.expired === older.length,
        'part 3.4: cleanup counts exactly the sessions it ended',
        `expired ${data.expired}, ${older.length} were older`,
        result,
      );
      const [reads, clockNow] = await Promise.all([Promise.all(older.map(({ id }) => own.guests.get(id))), emulatorNow(ctx)]);
      for (const read of reads) {
        expectErrorCode(read, 410, 'session_expired', 'part 3.3/3.4: a session the cleanup ended is 410');
        expectGoneAs(read, 'ended');
      }
      // The newer one is untouched, and its expiresAt is when it ends: active 5 s before, 410 1 s after.
      const expiresAt = Date.parse(newer.expiresAt);
      const early = await stepToJustBefore(ctx, expiresAt, clockNow);
      const before = await own.guests.get(newer.id);
      expect(
        before.ok && before.body.data.status === 'active',
        'D15: cleanup ends only sessions older than olderThan; a session is active until its expiresAt (emulator clock)',
        'the newer session is not active 5 s before its expiresAt',
        before,
      );
      const now = await stepJustPast(ctx, expiresAt, early);
      // A cleanup refused for its bad duration ends nothing: it is sent beside the read of the expired session.
      const [after, refused] = await Promise.all([own.guests.get(newer.id), own.request('POST', '/guests/cleanup', { body: { olderThan: 'soon' } })]);
      expectErrorCode(after, 410, 'session_expired', 'part 3.3/D4: a guest session past its expiresAt (emulator clock) is 410');
      expectGoneAs(after, 'expired');
      expectClockTimes(after, now, 'D6/D10: a guest session the clock ended names the emulator and the real time in details');
      expectErrorCode(refused, 400, 'validation_error', 'D2: olderThan is a duration');
    },
  },
  {
    id: 'sessions.token-rules',
    tags: ['sessions', 'users'],
    description: '/users/me/wallet without a session is 401 missing_session; with an unknown token 401 invalid_session',
    spec: 'D4',
    profile: 'emulator',
    creates: false,
    run: async (ctx) => {
      expectErrorCode(await ctx.client.request('GET', '/users/me/wallet'), 401, 'missing_session', 'D4: no token → 401 missing_session');
      expectErrorCode(
        await ctx.client.users.getWallet('st_conformanceUnknownToken00000000'),
        401,
        'invalid_session',
        'D4: unknown token → 401 invalid_session',
      );
    },
  },
];
