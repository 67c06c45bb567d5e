/**
 * The current user's wallet (DESIGN D13): made with the user (key pair, party, 2-of-3 split),
 * claimed once with POST /users/me/wallet, which hands out shares 2 and 3 and erases them.
 * Until it is claimed the wallet does not exist for the API: GET answers 404, and so do the
 * MPC and delegated-session calls that name it.
 */
import { ApiError, conflict, notFound } from '../errors.js';
import type { Runtime } from '../runtime.js';
import type { ClaimedWalletView, WalletView } from '../schemas/wallets.js';
import type { UserRecord, WalletRecord } from '../store/records.js';
import { emitEvent } from './events.js';

/** Shares 2 and 3 of the split, in the order they are handed out. */
const DEVICE_SHARE = 0;
const RECOVERY_SHARE = 1;

export function walletView(wallet: WalletRecord): WalletView {
  return {
    id: wallet.id,
    userId: wallet.userId,
    partyId: wallet.partyId,
    publicKey: wallet.publicKey,
    createdAt: wallet.claimedAt ?? wallet.createdAt,
  };
}

function walletOf(rt: Runtime, user: UserRecord): WalletRecord {
  const wallet = rt.store.getOwned('wallets', user.tenantId, user.walletId);
  // Every user is made with its wallet (users.ts); a missing one is a broken store, not a client error.
  if (!wallet || wallet.userId !== user.id) throw new Error(`user ${user.id} has no wallet record ${user.walletId}`);
  return wallet;
}

/** The user's claimed wallet; 404 before POST /users/me/wallet. */
export function getClaimedWallet(rt: Runtime, user: UserRecord): WalletRecord {
  const wallet = walletOf(rt, user);
  if (wallet.claimedAt === null) throw new ApiError('not_found', 'The user has no wallet yet: create it with POST /users/me/wallet');
  return wallet;
}

/**
 * A claimed wallet of this user, by id. Another user's or tenant's wallet, and one not yet
 * claimed, is 404 (D3: never 403, so nothing leaks).
 */
export function ownedWallet(rt: Runtime, user: UserRecord, walletId: string): WalletRecord {
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
    const shares = wallet.pendingShares.map((sealed) => rt.sealer.open(sealed));
    const device = shares[DEVICE_SHARE];
    const recovery = shares[RECOVERY_SHARE];
    if (!device || !recovery) throw new Error(`wallet ${wallet.id} lacks its pending shares`);
    const claimed = rt.store.update('wallets', wallet.id, { pendingShares: [], claimedAt: rt.clock.iso() });
    emitEvent(rt, user.tenantId, 'wallet.created', { walletId: claimed.id, userId: user.id, partyId: claimed.partyId, publicKey: claimed.publicKey });
    const view = { ...walletView(claimed), deviceShare: device.toString('base64'), recoveryShare: recovery.toString('base64') };
    for (const share of shares) share.fill(0);
    return view;
  });
}
