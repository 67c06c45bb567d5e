/** The current user's wallet (spec part 4 Users; D13, D15). */
import { z } from '@hono/zod-openapi';
import { IsoTimestamp, idOf } from './common.js';
import { ShareBase64 } from './mpc.js';
import { PartyId } from './users.js';

/** A raw 32-byte value in lower-case hex (an Ed25519 public key or seed). */
export const Hex32 = z
  .string()
  .regex(/^[0-9a-f]{64}$/, '32 bytes in lower-case hex')
  .openapi({ example: 'ab'.repeat(32) });

export const Wallet = z
  .object({
    id: idOf('wal'),
    userId: idOf('usr'),
    partyId: PartyId,
    publicKey: Hex32.openapi({ description: 'The raw 32-byte Ed25519 public key' }),
    createdAt: IsoTimestamp.openapi({ description: 'When the user claimed it with POST /users/me/wallet' }),
  })
  .openapi('Wallet');

export const ClaimedWallet = Wallet.extend({
  deviceShare: ShareBase64.openapi({ description: 'Share 2 of the 2-of-3 split; answered only here, then erased' }),
  recoveryShare: ShareBase64.openapi({ description: 'Share 3 of the 2-of-3 split; answered only here, then erased' }),
}).openapi('ClaimedWallet');

export const ClaimWalletBody = z.object({}).openapi('ClaimWallet');

export type WalletView = z.infer<typeof Wallet>;
export type ClaimedWalletView = z.infer<typeof ClaimedWallet>;
