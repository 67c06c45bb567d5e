/**
 * The current user's wallet (D13): made with the user (key pair, party, 2-of-3 split),
 * claimed once with POST /users/me/wallet, which hands out shares 2 and 3 and erases them.
 * Until it is claimed the wallet does not exist for the API: GET answers 404, and so do the
 * MPC and delegated-session calls that name it.
 */
import { ApiError, conflict, notFound } from '../errors.js';
import type { Runtime } from '../runtime.js';
import type { ClaimedWalletView, WalletView } from '../schemas/wallets.js';
import type { Sealer } from '../crypto/seal.js';
import type { Sealed, StoredWalletRecord, UserRecord } from '../store/records.js';
import { emitEvent } from './events.js';

/** Shares 2 and 3 of the split, in the order they are handed out. */
const DEVICE_SHARE = 0;
const RECOVERY_SHARE = 1;

/** Shares a wallet holds sealed before its claim (1, 2 and 3) and after it (1). */
const SHARES_BEFORE_CLAIM = 3;
const SHARES_AFTER_CLAIM = 1;

/** The wallet's shares, sealed together as one value (WalletRecord.shares). */
export function sealShares(sealer: Sealer, shares: readonly Uint8Array[]): Sealed {
  const together = Buffer.concat(shares);
  const sealed = sealer.seal(together);
  together.fill(0);
  return sealed;
}

/** The wallet's own share (share 1) and, until the claim, shares 2 and 3; either layout. */
export function openShares(sealer: Sealer, wallet: StoredWalletRecord): { server: Buffer; pending: Buffer[] } {
  if (!('shares' in wallet)) {
    return { server: sealer.open(wallet.serverShare), pending: wallet.pendingShares.map((sealed) => sealer.open(sealed)) };
  }
  const together = sealer.open(wallet.shares);
  const count = wallet.claimedAt === null ? SHARES_BEFORE_CLAIM : SHARES_AFTER_CLAIM;
  const size = together.length / count;
  if (!Number.isInteger(size) || size === 0) throw new Error(`wallet ${wallet.id} holds ${together.length} bytes of shares, not ${count} shares`);
  const parts = Array.from({ length: count }, (_, i) => Buffer.from(together.subarray(i * size, (i + 1) * size)));
  together.fill(0);
  return { server: parts[0]!, pending: parts.slice(1) };
}

/** The wallet as the API shows it; the party is the user's (the wallet record does not repeat it). */
export function walletView(wallet: StoredWalletRecord, user: UserRecord): WalletView {
  return {
    id: wallet.id,
    userId: wallet.userId,
    partyId: user.partyId,
    publicKey: wallet.publicKey,
    createdAt: wallet.claimedAt ?? wallet.createdAt,
  };
}

function walletOf(rt: Runtime, user: UserRecord): StoredWalletRecord {
  const wallet = rt.store.getOwned('wallets', user.tenantId, user.walletId);
  // Every user is made with its wallet (users.ts); a missing one is a broken store, not a client error.
  if (!wallet || wallet.userId !== user.id) throw new Error(`user ${user.id} has no wallet record ${user.walletId}`);
  return wallet;
}

/** The user's claimed wallet; 404 before POST /users/me/wallet. */
export function getClaimedWallet(rt: Runtime, user: UserRecord): StoredWalletRecord {
  const wallet = walletOf(rt, user);
  if (wallet.claimedAt === null) throw new ApiError('not_found', 'The user has no wallet yet: create it with POST /users/me/wallet');
  return wallet;
}

/**
 * A claimed wallet of this user, by id. Another user's or tenant's wallet, and one not yet
 * claimed, is 404 (D3: never 403, so nothing leaks).
 */
export function ownedWallet(rt: Runtime, user: UserRecord, walletId: string): StoredWalletRecord {
  const wallet = rt.store.getOwned('wallets', user.tenantId, walletId);
  if (!wallet || wallet.userId !== user.id || wallet.claimedAt === null) throw notFound('wallet', walletId);
  return wallet;
}

/**
 * Claims the user's pre-generated wallet: answers it with the device and recovery shares
 * (base64 raw share bytes, D13), erases them from the store and emits `wallet.created`.
 * A second claim is 409.
 */
export async function claimWallet(rt: Runtime, user: UserRecord): Promise<ClaimedWalletView> {
  return rt.store.write(() => {
    const wallet = walletOf(rt, user);
    if (wallet.claimedAt !== null) throw conflict('The wallet was already created; its device and recovery shares were handed out then');
    const { server, pending } = openShares(rt.sealer, wallet);
    try {
      const device = pending[DEVICE_SHARE];
      const recovery = pending[RECOVERY_SHARE];
      if (!device || !recovery) throw new Error(`wallet ${wallet.id} lacks its pending shares`);
      const claimedAt = rt.clock.iso();
      // Only share 1 stays; a wallet in the earlier layout is claimed in that layout.
      const claimed = rt.store.update(
        'wallets',
        wallet.id,
        'shares' in wallet ? { shares: rt.sealer.seal(server), claimedAt } : { pendingShares: [], claimedAt },
      );
      emitEvent(rt, user.tenantId, 'wallet.created', { walletId: claimed.id, userId: user.id, partyId: user.partyId, publicKey: claimed.publicKey });
      return { ...walletView(claimed, user), deviceShare: device.toString('base64'), recoveryShare: recovery.toString('base64') };
    } finally {
      for (const share of [server, ...pending]) share.fill(0);
    }
  });
}
