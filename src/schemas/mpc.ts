/** MPC key management (spec part 4; D13, D15): key shares and key recovery. */
import { z } from '@hono/zod-openapi';
import { secret } from './secret.js';
import { IsoTimestamp, idOf } from './common.js';

/** A share of a 32-byte seed is 33 bytes: the 32 y values and the x coordinate last. */
export const SHARE_BYTES = 33;

/** The raw shamir-secret-sharing share bytes in base64 (D13); any two shares of a wallet rebuild its key, so each is a secret. */
export const ShareBase64 = secret(z.string())
  .max(200)
  .regex(/^[A-Za-z0-9+/]+={0,2}$/, 'a key share in base64')
  .refine(
    (text) => Buffer.from(text, 'base64').length === SHARE_BYTES,
    `a key share is ${SHARE_BYTES} bytes (the raw shamir-secret-sharing share of a 32-byte seed)`,
  )
  .refine((text) => Buffer.from(text, 'base64')[SHARE_BYTES - 1] !== 0, 'a key share cannot have x coordinate 0')
  .openapi({ example: Buffer.alloc(SHARE_BYTES, 7).toString('base64') });

export const ShareIndex = z
  .number()
  .int()
  .min(1)
  .max(255)
  .openapi({ description: "Which share this is; 1 is the wallet's own (server) share, 2 the device share, 3 the recovery share" });

export const StoreShareBody = z
  .object({
    walletId: idOf('wal'),
    shareIndex: ShareIndex,
    share: ShareBase64,
    label: z.string().trim().min(1).max(100).optional(),
  })
  .openapi('StoreKeyShare');

export const StoredShare = z
  .object({
    id: idOf('shr'),
    walletId: idOf('wal'),
    shareIndex: ShareIndex,
    label: z.string().nullable(),
    createdAt: IsoTimestamp,
  })
  .openapi('StoredKeyShare');

/** A share as retrieve answers it; the wallet's own share (index 1) has no `shr_` id of its own. */
export const KeyShare = z
  .object({
    id: idOf('shr').nullable(),
    walletId: idOf('wal'),
    shareIndex: ShareIndex,
    label: z.string().nullable(),
    source: z.enum(['server', 'client']).openapi({ description: "server: the wallet's own share 1; client: stored with POST /mpc/shares" }),
    share: ShareBase64,
    createdAt: IsoTimestamp,
  })
  .openapi('KeyShare');

export const WalletIdParam = z.object({
  walletId: z
    .string()
    .min(1)
    .max(200)
    .openapi({ param: { name: 'walletId', in: 'path' } }),
});

export const DeletedShares = z
  .object({ walletId: idOf('wal'), deleted: z.number().int().min(0).openapi({ description: 'How many stored shares were deleted' }) })
  .openapi('DeletedKeyShares');

export const RecoverBody = z
  .object({
    walletId: idOf('wal'),
    shares: z.array(ShareBase64).min(2, 'give at least two shares (the threshold is 2 of 3)').max(255),
  })
  .openapi('RecoverKey');

export const RecoveredKey = z
  .object({
    walletId: idOf('wal'),
    publicKey: z
      .string()
      .regex(/^[0-9a-f]{64}$/)
      .openapi({ description: 'The raw 32-byte Ed25519 public key, hex' }),
    privateKey: secret(z.string().regex(/^[0-9a-f]{64}$/)).openapi({ description: 'The raw 32-byte Ed25519 seed, hex' }),
  })
  .openapi('RecoveredKey');

export type StoreShareInput = z.infer<typeof StoreShareBody>;
export type StoredShareView = z.infer<typeof StoredShare>;
export type KeyShareView = z.infer<typeof KeyShare>;
export type RecoveredKeyView = z.infer<typeof RecoveredKey>;
