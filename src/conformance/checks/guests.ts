/**
 * Guest sessions and user sessions (spec part 3.3–3.4, 4, 5.5; D4, D15): create, read,
 * expire (then 410), convert to a user, bulk cleanup, and the session token rules.
 */
import { envelope } from '../../schemas/common.js';
import { CleanupResult, ConvertedGuest, CreatedGuest, Guest } from '../../schemas/guests.js';
import { expect, expectShape, expectStatus } from '../expect.js';
import { expectError, expectErrorCode, expectSuccess } from '../shapes.js';
import type { Check } from '../types.js';
import { guestSession, HOLDS_SESSION } from './sessions.js';
import { createUser, EVENTS_LOOKED_AT, missingId } from './support.js';

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
    description: 'POST /guests answers 201 with id, status active, expiresAt, a guest user and a session token st_…',
    spec: 'D4, D15',
    profile: 'emulator',
    creates: true,
    uses: HOLDS_SESSION,
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
      expectShape(await ctx.client.guests.get(guest.guestId), envelope(Guest), 'D15: GET /guests/:id answers the session (without its token)');
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
    run: async (ctx) => {
      const guest = await guestSession(ctx);
      const ended = await ctx.client.guests.expire(guest.guestId);
      expectShape(ended, envelope(Guest), 'D15: DELETE answers the ended session');
      expectErrorCode(await ctx.client.guests.get(guest.guestId), 410, 'session_expired', 'D4: an ended session is 410 session_expired');
      expectErrorCode(await ctx.client.mfa.status(guest.token), 410, 'session_expired', "D4: an ended session's token is 410 session_expired");
    },
  },
  {
    id: 'guests.convert',
    tags: ['guests', 'users'],
    description: 'POST /guests/:id/convert makes the guest a basic user with the e-mail, and announces user.created',
    spec: 'part 3.4, D8, D15',
    profile: 'emulator',
    creates: true,
    uses: HOLDS_SESSION,
    run: async (ctx) => {
      const guest = await guestSession(ctx);
      const email = ctx.email('converted');
      const result = await ctx.client.guests.convert(guest.guestId, { email });
      expectStatus(result, 200, 'part 3.4: guests can be converted into a user');
      const { data } = expectShape(result, envelope(ConvertedGuest), 'D15: convert answers { user, session, guest }');
      expect(
        data.user.id === guest.userId && data.user.email === email && data.user.trustLevel === 'basic',
        'D15: the same user, now basic with the e-mail',
        `${data.user.id} ${data.user.email} ${data.user.trustLevel}`,
        result,
      );
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
    tags: ['guests'],
    description: 'POST /guests/cleanup {olderThan} answers the count expired and leaves newer sessions active; a bad duration is 400',
    spec: 'part 3.4 (bulk expire), D15',
    profile: 'emulator',
    creates: true,
    uses: HOLDS_SESSION,
    run: async (ctx) => {
      const guest = await guestSession(ctx);
      // A century: only sessions that old are ended, so the run touches nothing of the tenant's.
      const result = await ctx.client.guests.cleanup({ olderThan: '36500d' });
      expectStatus(result, 200, 'part 3.4: bulk expire');
      expectShape(result, envelope(CleanupResult), 'D15: cleanup answers { expired }');
      const after = await ctx.client.guests.get(guest.guestId);
      expect(after.ok && after.body.data.status === 'active', 'D15: cleanup ends only sessions older than olderThan', 'a new session was ended', after);
      expectErrorCode(
        await ctx.client.request('POST', '/guests/cleanup', { body: { olderThan: 'soon' } }),
        400,
        'validation_error',
        'D2: olderThan is a duration',
      );
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
