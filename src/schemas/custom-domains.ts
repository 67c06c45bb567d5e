/** Custom domains (spec part 4; D13, D15). */
import { z } from '@hono/zod-openapi';
import { IsoTimestamp, idOf } from './common.js';

const LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

/** Why `host` (lower-case, no trailing dot) is not a registrable host name, or null. */
export function hostnameProblem(host: string): string | null {
  if (host.length === 0) return 'must not be empty';
  if (host.length > 253) return 'must be at most 253 characters';
  const labels = host.split('.');
  if (labels.length < 2) return 'must have at least two labels, such as example.com';
  for (const label of labels) {
    if (!LABEL.test(label)) {
      return `label "${label}" must be 1–63 letters, digits or hyphens, not starting or ending with a hyphen`;
    }
  }
  if (/^\d+$/.test(labels[labels.length - 1]!)) return 'must be a host name, not an IP address';
  return null;
}

/** A host name: trimmed, lower-cased, one trailing dot dropped. */
export const Hostname = z
  .string()
  .trim()
  .toLowerCase()
  .max(254)
  .superRefine((value, ctx) => {
    const problem = hostnameProblem(value.replace(/\.$/, ''));
    if (problem !== null) ctx.addIssue({ code: 'custom', message: `domain ${problem}` });
  })
  .openapi({ example: 'auth.example.com' });

export const RegisterDomainBody = z.object({ domain: Hostname }).openapi('RegisterCustomDomain');

export const CustomDomain = z
  .object({
    id: idOf('dom'),
    domain: z.string(),
    status: z.enum(['pending', 'verified']),
    verification: z
      .object({
        type: z.literal('TXT'),
        name: z.string().openapi({ example: '_svc-verify.auth.example.com' }),
        value: z.string().openapi({ example: 'svc-verify=Q2x9…' }),
      })
      .openapi({ description: 'The DNS record to create; verification looks it up' }),
    verifiedAt: IsoTimestamp.nullable(),
    createdAt: IsoTimestamp,
  })
  .openapi('CustomDomain');

export const DeletedDomain = z.object({ domain: z.string(), deleted: z.literal(true) }).openapi('DeletedCustomDomain');

export type CustomDomainView = z.infer<typeof CustomDomain>;
