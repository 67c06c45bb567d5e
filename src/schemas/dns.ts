/**
 * The emulated DNS TXT records of the control plane (`/_emulator/dns/txt`,
 * docs/control-plane.md#emulated-dns): a DNS name, the values it answers, and the bounds that
 * keep a record as a real zone could hold it.
 */
import { z } from '@hono/zod-openapi';
import { IsoTimestamp } from './common.js';

/** The most values one name answers. */
export const MAX_TXT_VALUES = 16;
/** The longest value, in characters: a TXT record's character-string holds at most 255 bytes. */
export const MAX_TXT_VALUE_LENGTH = 255;
/** The most names the emulated zone holds at once. */
export const MAX_TXT_NAMES = 1_000;

/** A label of a DNS name as a record's owner may spell it: letters, digits, `-` and `_` (as in `_svc-verify`), 1–63. */
const LABEL = /^[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?$/;

/** Why `name` (lower-case, no trailing dot) is not a DNS name, or null. */
export function dnsNameProblem(name: string): string | null {
  if (name.length === 0) return 'must not be empty';
  if (name.length > 253) return 'must be at most 253 characters';
  for (const label of name.split('.')) {
    if (!LABEL.test(label)) return `label "${label}" must be 1–63 letters, digits, hyphens or underscores, not starting or ending with a hyphen`;
  }
  return null;
}

/** `name` as the zone keeps it: lower-case, without a trailing dot. */
export function normalTxtName(name: string): string {
  return name.trim().toLowerCase().replace(/\.$/, '');
}

/** A DNS name: trimmed and lower-cased (DNS names are case-insensitive); one trailing dot is allowed (normalTxtName drops it). */
export const DnsName = z
  .string()
  .trim()
  .toLowerCase()
  .max(254)
  .superRefine((value, ctx) => {
    const problem = dnsNameProblem(value.replace(/\.$/, ''));
    if (problem !== null) ctx.addIssue({ code: 'custom', message: `a DNS name ${problem}` });
  })
  .openapi({ example: '_svc-verify.auth.example.com' });

export const DnsNameParam = z.object({
  name: DnsName.openapi({ param: { name: 'name', in: 'path' }, description: 'The DNS name, such as `_svc-verify.auth.example.com`' }),
});

export const SetTxtRecordBody = z
  .object({
    values: z
      .array(z.string().max(MAX_TXT_VALUE_LENGTH, `a TXT value is at most ${MAX_TXT_VALUE_LENGTH} characters`))
      .min(1, 'give at least one value; DELETE removes the record')
      .max(MAX_TXT_VALUES, `at most ${MAX_TXT_VALUES} values per name`)
      .openapi({ example: ['svc-verify=Q2x9fJ3kLmN8pR5tV7wY0zA4bC6dE1gH'] }),
  })
  .openapi('SetDnsTxtRecord');

export const TxtRecord = z
  .object({
    name: z.string().openapi({ example: '_svc-verify.auth.example.com' }),
    values: z.array(z.string()),
    /** Emulator time of the last PUT. */
    updatedAt: IsoTimestamp,
  })
  .openapi('DnsTxtRecord');

export type TxtRecordView = z.infer<typeof TxtRecord>;

export const TxtRecordDeleted = z.object({ name: z.string(), deleted: z.literal(true) }).openapi('DnsTxtRecordDeleted');
