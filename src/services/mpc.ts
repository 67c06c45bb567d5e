/**
 * MPC key management (spec part 4; D5, D13): a user stores shares of its wallet's key
 * (sealed at rest with the data dir's key), retrieves them, deletes them, and recovers the key
 * from any two. Share 1 is the wallet's own share, kept with the wallet: retrieve answers it
 * with the stored ones (behind the MFA guard), so a client holding one share can recover too.
 */
import { ApiError, conflict } from '../errors.js';
import { recoverKey } from '../crypto/party.js';
import { newId } from '../ids.js';
import type { Runtime } from '../runtime.js';
import type { KeyShareView, RecoveredKeyView, StoreShareInput, StoredShareView } from '../schemas/mpc.js';
import type { KeyShareRecord, UserRecord } from '../store/records.js';
import { openShares, ownedWallet } from './wallets.js';

/** The index of the wallet's own share (D13: share 1). */
export const SERVER_SHARE_INDEX = 1;

export function storedShareView(share: KeyShareRecord): StoredShareView {
  return { id: share.id, walletId: share.walletId, shareIndex: share.shareIndex, label: share.label, createdAt: share.createdAt };
}

function sharesOf(rt: Runtime, user: UserRecord, walletId: string): KeyShareRecord[] {
  return rt.store.ofTenant('keyShares', user.tenantId).filter((share) => share.walletId === walletId);
}

/** Stores a share for one of the user's wallets; a taken index (1 is the wallet's own) is 409. */
export async function storeShare(rt: Runtime, user: UserRecord, input: StoreShareInput): Promise<KeyShareRecord> {
  const wallet = ownedWallet(rt, user, input.walletId);
  if (input.shareIndex === SERVER_SHARE_INDEX) {
    throw conflict("Share index 1 is the wallet's own share, which the service already keeps", [{ path: 'shareIndex', message: 'already taken' }]);
  }
  const sealed = rt.sealer.seal(Buffer.from(input.share, 'base64'));
  return rt.store.write(() => {
    if (rt.store.findByKey('keyShares', `${wallet.id}:${input.shareIndex}`)) {
      throw conflict(`Wallet ${wallet.id} already has a share with index ${input.shareIndex}`, [{ path: 'shareIndex', message: 'already taken' }]);
    }
    return rt.store.insert('keyShares', {
      id: newId('shr'),
      tenantId: user.tenantId,
      userId: user.id,
      walletId: wallet.id,
      shareIndex: input.shareIndex,
      label: input.label ?? null,
      share: sealed,
      createdAt: rt.clock.iso(),
    });
  });
}

/** The wallet's own share (index 1) and every stored share, by index. */
export function retrieveShares(rt: Runtime, user: UserRecord, walletId: string): KeyShareView[] {
  const wallet = ownedWallet(rt, user, walletId);
  const { server: serverShare } = openShares(rt.sealer, wallet);
  const server: KeyShareView = {
    id: null,
    walletId: wallet.id,
    shareIndex: SERVER_SHARE_INDEX,
    label: 'server',
    source: 'server',
    share: serverShare.toString('base64'),
    createdAt: wallet.createdAt,
  };
  const stored = sharesOf(rt, user, wallet.id)
    .sort((a, b) => a.shareIndex - b.shareIndex)
    .map((share): KeyShareView => ({ ...storedShareView(share), source: 'client', share: rt.sealer.open(share.share).toString('base64') }));
  return [server, ...stored];
}

/** Deletes every stored share of the wallet (its own share 1 stays with it); answers how many. */
export async function deleteShares(rt: Runtime, user: UserRecord, walletId: string): Promise<number> {
  const wallet = ownedWallet(rt, user, walletId);
  return rt.store.write(() => {
    const shares = sharesOf(rt, user, wallet.id);
    for (const share of shares) rt.store.remove('keyShares', share.id);
    return shares.length;
  });
}

/**
 * Combines the shares into the Ed25519 seed and checks that its public key is the wallet's:
 * shares of another key, or a tampered share, give another key and are 400 share_mismatch.
 */
export async function recoverWalletKey(rt: Runtime, user: UserRecord, walletId: string, shares: string[]): Promise<RecoveredKeyView> {
  const wallet = ownedWallet(rt, user, walletId);
  const bytes = shares.map((share) => Buffer.from(share, 'base64'));
  const coordinates = bytes.map((share) => share[share.length - 1]);
  const repeated = coordinates.findIndex((x, i) => coordinates.indexOf(x) !== i);
  if (repeated !== -1) {
    throw new ApiError('validation_error', 'The request body is not valid', [
      { path: `shares.${repeated}`, message: 'the same share (x coordinate) was given twice; give two different shares', in: 'body' },
    ]);
  }
  const { seed, publicKey } = await recoverKey(bytes);
  try {
    if (publicKey.toString('hex') !== wallet.publicKey) {
      throw new ApiError('share_mismatch', "The shares do not recover this wallet's key: the derived public key differs", [
        { path: 'shares', message: 'give two shares of this wallet' },
      ]);
    }
    return { walletId: wallet.id, publicKey: wallet.publicKey, privateKey: seed.toString('hex') };
  } finally {
    seed.fill(0);
  }
}
