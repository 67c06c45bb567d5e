/** Guest sessions (spec part 4; D15). */
import { z } from '@hono/zod-openapi';
import { SessionGrant } from './auth.js';
import { Duration, IsoTimestamp, idOf } from './common.js';
import { Email, User } from './users.js';

export const GuestStatus = z.enum(['active', 'expired', 'ended', 'converted']).openapi('GuestStatus');

export const Guest = z
  .object({
    id: idOf('gst'),
    status: GuestStatus,
    userId: idOf('usr'),
    createdAt: IsoTimestamp,
    expiresAt: IsoTimestamp,
    endedAt: IsoTimestamp.nullable(),
    convertedAt: IsoTimestamp.nullable(),
  })
  .openapi('Guest');

export const CreatedGuest = Guest.extend({ user: User, session: SessionGrant }).openapi('CreatedGuest');

export const CreateGuestBody = z.object({}).openapi('CreateGuest');

export const ConvertGuestBody = z.object({ email: Email, name: z.string().trim().min(1).max(200).optional() }).openapi('ConvertGuest');

export const ConvertedGuest = z.object({ user: User, session: SessionGrant, guest: Guest }).openapi('ConvertedGuest');

export const CleanupGuestsBody = z
  .object({ olderThan: Duration.openapi({ description: 'End active guest sessions created longer ago than this' }) })
  .openapi('CleanupGuests');

export const CleanupResult = z.object({ expired: z.number().int().min(0) }).openapi('CleanupResult');

export type GuestView = z.infer<typeof Guest>;
