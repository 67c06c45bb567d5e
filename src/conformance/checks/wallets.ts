/**
 * Wallets, key shares and delegated sessions (spec part 4; D4, D13, D15): the claimed
 * wallet's shares recover a key whose public key is the wallet's, shares are stored and
 * deleted, and a delegated session executes and queries on the ledger within its permissions.
 */
import { createPrivateKey, createPublicKey } from 'node:crypto';
import { envelope, list, paginated } from '../../schemas/common.js';
import { Contract, CreatedDelegatedSession, DelegatedSession, Transaction } from '../../schemas/delegated-sessions.js';
import { DeletedShares, KeyShare, RecoveredKey, StoredShare } from '../../schemas/mpc.js';
import { CreatedGuest } from '../../schemas/guests.js';
import { ClaimedWallet, Wallet } from '../../schemas/wallets.js';
import { expect, expectShape, expectStatus } from '../expect.js';
import { expectErrorCode } from '../shapes.js';
import type { Check, CheckContext } from '../types.js';
import { enableMfa, outliveFreshness } from './mfa.js';
import {
  advanceClock,
  claimedWallet,
  emulatorNow,
  expectClockTimes,
  guestSession,
  HOLDS_SESSION,
  PAST_UP_TO,
  stepJustPast,
  stepToJustBefore,
} from './sessions.js';
import { ownTenant, removal } from './support.js';

const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
const TEMPLATE = '#conformance:Conformance:Asset';

/** The raw Ed25519 public key (hex) of a raw 32-byte seed (hex), by node:crypto. */
export function ed25519PublicKey(seedHex: string): string {
  const key = createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, Buffer.from(seedHex, 'hex')]), format: 'der', type: 'pkcs8' });
  const jwk = createPublicKey(key).export({ format: 'jwk' });
  return Buffer.from(String(jwk.x), 'base64url').toString('hex');
}

async function delegatedSession(ctx: CheckContext, expiresIn = '1h') {
  const wallet = await claimedWallet(ctx);
  const sent = { walletId: wallet.walletId, permissions: { templates: [TEMPLATE], choices: ['Archive', 'Touch'] }, expiresIn };
  const result = await ctx.client.delegatedSessions.create(wallet.token, sent);
  expectStatus(result, 201, 'D15: POST /delegated-sessions creates a session');
  const { data } = expectShape(result, envelope(CreatedDelegatedSession), 'D15: the delegated session and its token (once)');
  ctx.defer({ description: `delegated session ${data.id}`, stage: 'first', run: () => removal(ctx.client.delegatedSessions.revoke(wallet.token, data.id)) });
  return { wallet, session: data, sent, result };
}

export const walletChecks: Check[] = [
  {
    id: 'wallets.claim',
    tags: ['users', 'wallets'],
    description:
      'POST /users/me/wallet answers 201 with the wallet and, only then, deviceShare and recoveryShare; GET answers it without shares; a second claim is 409',
    spec: 'part 4 (Users: wallet), D13, D15',
    profile: 'emulator',
    creates: true,
    uses: HOLDS_SESSION,
    run: async (ctx) => {
      const wallet = await claimedWallet(ctx);
      const { data: claimed } = expectShape(wallet.result, envelope(ClaimedWallet), 'D15: the claimed wallet fields');
      const read = await ctx.client.users.getWallet(wallet.token);
      const { data } = expectShape(read, envelope(Wallet), 'D15: GET /users/me/wallet');
      expect(
        data.id === wallet.walletId && !read.text.includes(wallet.deviceShare),
        'D13: the shares are answered once, at the claim',
        'GET shows a share or another wallet',
        read,
      );
      const differ = (['userId', 'partyId', 'publicKey', 'createdAt'] as const).filter((field) => data[field] !== claimed[field]);
      expect(
        differ.length === 0 && data.userId === wallet.userId,
        "D15: GET /users/me/wallet reads back the wallet the claim answered, the user's own",
        differ.map((field) => `${field} ${data[field]}, claimed ${claimed[field]}`).join('; ') || `userId ${data.userId}, the user ${wallet.userId}`,
        read,
      );
      expectErrorCode(await ctx.client.users.createWallet(wallet.token), 409, 'conflict', 'D13: a wallet is claimed once');
    },
  },
  {
    id: 'mpc.recover',
    tags: ['mpc', 'wallets'],
    description: "POST /mpc/recover with the device and recovery shares answers the seed whose Ed25519 public key is the wallet's",
    spec: 'part 4 (MPC), D13, D15',
    profile: 'emulator',
    creates: true,
    uses: HOLDS_SESSION,
    // Recovery stores nothing: what it answers is confirmed against the wallet as GET /users/me/wallet reads it.
    readsBack: ['recoverKey'],
    run: async (ctx) => {
      const wallet = await claimedWallet(ctx);
      const result = await ctx.client.mpc.recover(wallet.token, { walletId: wallet.walletId, shares: [wallet.deviceShare, wallet.recoveryShare] });
      const read = await ctx.client.users.getWallet(wallet.token);
      const { data } = expectShape(result, envelope(RecoveredKey), 'D15: recover answers walletId, publicKey, privateKey');
      const { data: held } = expectShape(read, envelope(Wallet), 'D15: GET /users/me/wallet');
      expect(
        ed25519PublicKey(data.privateKey) === held.publicKey && data.publicKey === held.publicKey && data.walletId === held.id,
        'D13: 2 of 3 shares rebuild the wallet key',
        'the recovered seed does not give the public key GET /users/me/wallet reads',
        result,
      );
      const one = await ctx.client.mpc.recover(wallet.token, { walletId: wallet.walletId, shares: [wallet.deviceShare] });
      expectErrorCode(one, 400, 'validation_error', 'D13: one share is under the 2-of-3 threshold');
    },
  },
  {
    id: 'mpc.shares',
    tags: ['mpc', 'wallets'],
    description:
      'a key share is stored (201) and retrieved as stored; DELETE counts the shares it deleted, and none is retrieved after; stored again, it is retrieved again',
    spec: 'part 4 (MPC), D15',
    profile: 'emulator',
    creates: true,
    uses: HOLDS_SESSION,
    readsBack: ['storeKeyShare', 'deleteKeyShares'],
    run: async (ctx) => {
      const wallet = await claimedWallet(ctx);
      const sent = { walletId: wallet.walletId, shareIndex: 2, share: wallet.deviceShare, label: ctx.name('share') };
      const stored = await ctx.client.mpc.storeShare(wallet.token, sent);
      expectStatus(stored, 201, 'D15: POST /mpc/shares stores a share');
      const storedId = expectShape(stored, envelope(StoredShare), 'D15: the stored share fields').data.id;
      const retrieve = async () => {
        const result = await ctx.client.mpc.getShares(wallet.token, wallet.walletId);
        return { result, data: expectShape(result, list(KeyShare), 'D15: GET /mpc/shares/:walletId lists the shares').data };
      };
      /** The stored share is retrieved with what POST sent: its index, label and bytes. */
      const expectRetrieved = ({ result, data }: Awaited<ReturnType<typeof retrieve>>, id: string, rule: string) => {
        const share = data.find((s) => s.id === id);
        expect(share !== undefined, rule, `${id} is not among the shares`, result);
        expect(
          share.share === sent.share && share.shareIndex === sent.shareIndex && share.label === sent.label && share.source === 'client',
          rule,
          `retrieved index ${share.shareIndex}, label ${share.label}, source ${share.source}${share.share === sent.share ? '' : ', other bytes'}`,
          result,
        );
      };
      const shares = await retrieve();
      expectRetrieved(shares, storedId, 'D15: the stored share is retrieved as POST /mpc/shares sent it');
      // Only this check stores shares of the run's wallet: every client share listed is one to delete.
      const clientShares = shares.data.filter((s) => s.source === 'client').length;
      const deleted = await ctx.client.mpc.deleteShares(wallet.token, wallet.walletId);
      const { data: answer } = expectShape(deleted, envelope(DeletedShares), 'D15: DELETE /mpc/shares/:walletId answers the count');
      expect(
        answer.deleted === clientShares,
        'D15: DELETE /mpc/shares/:walletId counts the stored shares it deleted',
        `deleted ${answer.deleted}, ${clientShares} stored`,
        deleted,
      );
      const after = await retrieve();
      expect(
        !after.data.some((s) => s.id === storedId) && after.data.every((s) => s.source === 'server'),
        'part 4: deleted key shares are no longer retrieved',
        `${after.data.filter((s) => s.source === 'client').length} stored shares still listed`,
        after.result,
      );
      // The index is free again: the same share is stored anew, retrieved, and deleted as one.
      const again = await ctx.client.mpc.storeShare(wallet.token, sent);
      expectStatus(again, 201, 'D15: a share deleted can be stored again');
      const againId = expectShape(again, envelope(StoredShare), 'D15: the stored share fields').data.id;
      expectRetrieved(await retrieve(), againId, 'D15: a share stored again is retrieved');
      const removed = await ctx.client.mpc.deleteShares(wallet.token, wallet.walletId);
      expect(
        removed.ok && removed.body.data.deleted === 1,
        'D15: DELETE /mpc/shares/:walletId counts the stored shares it deleted',
        `deleted ${removed.ok ? removed.body.data.deleted : removed.status}, 1 stored`,
        removed,
      );
    },
  },
  {
    id: 'delegated-sessions.create',
    tags: ['delegated-sessions'],
    description:
      'POST /delegated-sessions answers 201 with id, status active, expiresAt, permissions and a dst_ token; GET reads back what was sent, without the token',
    spec: 'part 4 (Delegated sessions), D15',
    profile: 'emulator',
    creates: true,
    uses: HOLDS_SESSION,
    readsBack: ['createDelegatedSession'],
    run: async (ctx) => {
      const { wallet, session, sent } = await delegatedSession(ctx);
      expect(session.status === 'active', 'D15: a new delegated session is active', session.status);
      const read = await ctx.client.delegatedSessions.get(wallet.token, session.id);
      const { data } = expectShape(read, envelope(DelegatedSession), 'D15: GET /delegated-sessions/:id');
      expect(!read.text.includes(session.token), 'D15: the token is answered only at creation', 'GET shows the token', read);
      const rule = 'D15: GET /delegated-sessions/:id reads back the session POST made';
      expect(
        data.status === 'active' && data.walletId === sent.walletId && data.userId === wallet.userId,
        rule,
        `${data.status}, wallet ${data.walletId}`,
        read,
      );
      expect(
        // The lists sent, in their order; a deployment may add fields of its own to the object.
        JSON.stringify([data.permissions.templates, data.permissions.choices]) === JSON.stringify([sent.permissions.templates, sent.permissions.choices]) &&
          data.maxCommands === null,
        rule,
        `permissions ${JSON.stringify(data.permissions)}, maxCommands ${data.maxCommands}`,
        read,
      );
      const lives = Date.parse(data.expiresAt) - Date.parse(data.createdAt);
      expect(data.expiresAt === session.expiresAt && lives === 3_600_000, rule, `expiresAt ${data.expiresAt}: ${lives} ms after createdAt, expiresIn 1h`, read);
    },
  },
  {
    id: 'delegated-sessions.execute-query',
    tags: ['delegated-sessions'],
    description:
      "the delegate creates a contract, finds it with query (its payload as sent), archives it, and no longer finds it; the session's usage counts exactly those commands and queries",
    spec: 'part 4 (execute, query), D13, D15',
    profile: 'emulator',
    creates: true,
    uses: HOLDS_SESSION,
    // A query writes nothing on the ledger: what it confirms is what execute did, and the session's usage counts it.
    readsBack: ['executeTransaction', 'queryContracts'],
    run: async (ctx) => {
      const { wallet, session } = await delegatedSession(ctx);
      const payload = { run: ctx.runId };
      const created = await ctx.client.delegatedSessions.execute(session.token, session.id, { create: { templateId: TEMPLATE, payload } });
      const tx = expectShape(created, envelope(Transaction), 'D15: execute answers the transaction').data;
      const event = tx.events.find((e) => e.type === 'created');
      expect(tx.status === 'completed' && event !== undefined, 'D13: a create command completes with a created event', `status ${tx.status}`, created);
      const found = await ctx.client.delegatedSessions.query(session.token, session.id, { templateId: TEMPLATE });
      const page = expectShape(found, paginated(Contract), 'D15: query answers a page of contracts');
      const contract = page.data.find((c) => c.contractId === event.contractId);
      expect(contract !== undefined, 'D13: query returns active contracts by template', 'the new contract is missing', found);
      // The field sent, as sent: a deployment may add fields of its own to a contract's payload.
      expect(
        contract.status === 'active' && contract.templateId === TEMPLATE && contract.payload['run'] === payload.run,
        'D13: query reads back the contract execute created',
        `${contract.status} ${contract.templateId} ${JSON.stringify(contract.payload)}`,
        found,
      );
      const archived = await ctx.client.delegatedSessions.execute(session.token, session.id, { exercise: { contractId: event.contractId, choice: 'Archive' } });
      expect(archived.ok && archived.body.data.events.some((e) => e.type === 'archived'), 'D13: Archive archives the contract', 'no archived event', archived);
      const after = await ctx.client.delegatedSessions.query(session.token, session.id, { templateId: TEMPLATE });
      expect(
        after.ok && !after.body.data.some((c) => c.contractId === event.contractId && c.status === 'active'),
        'D13: query returns active contracts only',
        'the archived contract is still active',
        after,
      );
      // Only this check uses the session: its usage is exactly two commands run and two queries.
      const read = await ctx.client.delegatedSessions.get(wallet.token, session.id);
      const { usage, lastUsedAt } = expectShape(read, envelope(DelegatedSession), 'D15: GET /delegated-sessions/:id').data;
      expect(
        usage.commands === 2 && usage.completed === 2 && usage.failed === 0 && usage.denied === 0 && usage.queries === 2 && lastUsedAt !== null,
        "D15: a delegated session's usage counts exactly the commands and queries it ran",
        `usage ${JSON.stringify(usage)} after 2 commands and 2 queries, lastUsedAt ${lastUsedAt}`,
        read,
      );
    },
  },
  {
    id: 'delegated-sessions.permissions',
    tags: ['delegated-sessions'],
    description: 'a command on a template outside the permissions is 403 permission_denied',
    spec: 'D6, D15',
    profile: 'emulator',
    creates: true,
    uses: HOLDS_SESSION,
    run: async (ctx) => {
      const { session } = await delegatedSession(ctx);
      const result = await ctx.client.delegatedSessions.execute(session.token, session.id, {
        create: { templateId: '#conformance:Other:Template', payload: {} },
      });
      expectErrorCode(result, 403, 'permission_denied', 'D6: outside the permissions is 403 permission_denied');
    },
  },
  {
    id: 'delegated-sessions.revoked-410',
    tags: ['delegated-sessions'],
    description: 'after DELETE /delegated-sessions/:id the session is revoked and its token is 410 session_expired',
    spec: 'part 3.5, part 7 (410), D4',
    profile: 'emulator',
    creates: true,
    uses: HOLDS_SESSION,
    readsBack: ['revokeDelegatedSession'],
    run: async (ctx) => {
      const { wallet, session } = await delegatedSession(ctx);
      const revoked = await ctx.client.delegatedSessions.revoke(wallet.token, session.id);
      expect(
        revoked.ok && revoked.body.data.status === 'revoked',
        'part 3.5: delegated sessions can be revoked',
        `status ${revoked.ok ? revoked.body.data.status : revoked.status}`,
        revoked,
      );
      expectErrorCode(
        await ctx.client.delegatedSessions.execute(session.token, session.id, { create: { templateId: TEMPLATE, payload: {} } }),
        410,
        'session_expired',
        'D4: a revoked session is 410',
      );
      // Its owner still reads it, in the state the revocation left.
      const read = await ctx.client.delegatedSessions.get(wallet.token, session.id);
      expect(
        read.ok && read.body.data.status === 'revoked' && read.body.data.revokedAt !== null,
        'D4/D15: a revoked session is read revoked',
        `status ${read.ok ? `${read.body.data.status}, revokedAt ${read.body.data.revokedAt}` : read.status}`,
        read,
      );
      expectErrorCode(await ctx.client.delegatedSessions.query(session.token, session.id), 410, 'session_expired', 'D4: a revoked session is 410');
    },
  },
  {
    id: 'delegated-sessions.max-commands',
    tags: ['delegated-sessions'],
    description: 'a session with maxCommands 1 runs one command; the next is 403 permission_denied; its usage reads 1 run, 1 denied, 0 remaining',
    spec: 'D6, D15',
    profile: 'emulator',
    creates: true,
    uses: HOLDS_SESSION,
    readsBack: ['executeTransaction'],
    run: async (ctx) => {
      const wallet = await claimedWallet(ctx);
      const created = await ctx.client.delegatedSessions.create(wallet.token, {
        walletId: wallet.walletId,
        permissions: { templates: [TEMPLATE], choices: [] },
        maxCommands: 1,
        expiresIn: '10m',
      });
      const { data } = expectShape(created, envelope(CreatedDelegatedSession), 'D15: a delegated session with maxCommands');
      ctx.defer({
        description: `delegated session ${data.id}`,
        stage: 'first',
        run: () => removal(ctx.client.delegatedSessions.revoke(wallet.token, data.id)),
      });
      const command = { create: { templateId: TEMPLATE, payload: {} } };
      expectStatus(await ctx.client.delegatedSessions.execute(data.token, data.id, command), 200, 'D15: the first command runs');
      expectErrorCode(
        await ctx.client.delegatedSessions.execute(data.token, data.id, command),
        403,
        'permission_denied',
        'D15: maxCommands caps the commands in all',
      );
      const read = await ctx.client.delegatedSessions.get(wallet.token, data.id);
      const { usage } = expectShape(read, envelope(DelegatedSession), 'D15: GET /delegated-sessions/:id').data;
      expect(
        usage.commands === 1 && usage.denied === 1 && usage.remaining === 0,
        'D15: the usage reads back the command run and the one refused, none remaining',
        `usage ${JSON.stringify(usage)}`,
        read,
      );
    },
  },
  {
    id: 'mpc.mfa-required',
    tags: ['mpc', 'mfa', 'clock'],
    description: 'with MFA on and the session no longer fresh, retrieving and recovering key shares are 403 mfa_required',
    spec: 'part 5.4, D5',
    profile: 'emulator',
    creates: true,
    long: true,
    uses: { clock: 'steps', why: 'steps the clock past the MFA freshness (10 minutes)' },
    run: async (ctx) => {
      const session = await guestSession(ctx);
      const [claimed] = await Promise.all([ctx.client.users.createWallet(session.token), enableMfa(ctx, session)]);
      expectStatus(claimed, 201, 'D15: claim the wallet');
      const wallet = claimed.ok ? claimed.body.data : undefined;
      await outliveFreshness(ctx);
      const [shares, recovered] = await Promise.all([
        ctx.client.mpc.getShares(session.token, wallet!.id),
        ctx.client.mpc.recover(session.token, { walletId: wallet!.id, shares: [wallet!.deviceShare, wallet!.recoveryShare] }),
      ]);
      expectErrorCode(shares, 403, 'mfa_required', 'D5: key-share retrieve needs a fresh MFA check');
      expectErrorCode(recovered, 403, 'mfa_required', 'D5: recover needs a fresh MFA check');
    },
  },
  {
    id: 'delegated-sessions.expiry',
    tags: ['delegated-sessions', 'clock'],
    description: 'a delegated session works until the expiresAt it reports (emulator clock; 5 s before, 200) and is 410 session_expired once past it',
    spec: 'part 3.3, D4, D10',
    profile: 'emulator',
    creates: true,
    uses: { clock: 'steps', why: "steps the clock past a delegated session's expiresIn (a minute)" },
    run: async (ctx) => {
      const { session } = await delegatedSession(ctx, '1m');
      const expiresAt = Date.parse(session.expiresAt);
      const early = await stepToJustBefore(ctx, expiresAt, await emulatorNow(ctx));
      const before = await ctx.client.delegatedSessions.query(session.token, session.id);
      expectStatus(before, 200, `D4/D10: a delegated session works until its expiresAt ${session.expiresAt} (emulator clock): 5 s before`);
      const now = await stepJustPast(ctx, expiresAt, early);
      const result = await ctx.client.delegatedSessions.query(session.token, session.id);
      expectErrorCode(result, 410, 'session_expired', 'part 3.3/D4: an expired session is 410');
      expectClockTimes(result, now, 'D6/D10: a session the clock ended names the emulator and the real time in details');
    },
  },
  {
    id: 'guests.ttl-expiry',
    tags: ['guests', 'clock'],
    description:
      "in a tenant of its own with guestTtl and sessionTtl set to 2m: a guest session past the tenant's guestTtl (emulator clock) is 410 session_expired, and so is its session token",
    spec: 'part 3.3, D3, D4, D10',
    profile: 'emulator',
    creates: true,
    uses: { clock: 'steps', why: "steps the clock past its tenant's guest TTL (2 minutes)" },
    run: async (ctx) => {
      // A tenant of its own, with TTLs the lane can step past without ending the sessions of the run's tenant.
      const own = await ownTenant(ctx, 'guest-ttl');
      expectStatus(await own.tenant.update({ settings: { guestTtl: '2m', sessionTtl: '2m' } }), 200, 'D3: PATCH /tenant sets guestTtl and sessionTtl');
      const made = await own.guests.create();
      const guest = expectShape(made, envelope(CreatedGuest), 'D15: POST /guests answers the session').data;
      const now = await advanceClock(ctx, '121s', PAST_UP_TO);
      // Its user session ends with it (sessionTtl = guestTtl here): that 410 names the times too.
      const [result, token] = await Promise.all([own.guests.get(guest.id), own.mfa.status(guest.session.token)]);
      expectErrorCode(result, 410, 'session_expired', 'part 3.3: an expired guest session is 410');
      expectClockTimes(result, now, 'D6/D10: a guest session the clock ended names the emulator and the real time in details');
      expectErrorCode(token, 410, 'session_expired', "D4: an expired guest session's token is 410 session_expired");
      expectClockTimes(token, now, 'D6/D10: a session token the clock ended names the emulator and the real time in details');
    },
  },
];
