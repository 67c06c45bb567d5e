/**
 * The shapes checks hold answers to, built from src/schemas so the suite and the emulator
 * cannot drift apart. The spec-level shapes loosen what the spec leaves "not shown" (the
 * entries of `details`, the base of `page`); the emulator-level ones are the schemas as is.
 */
import { z } from '@hono/zod-openapi';
import type { ApiResult } from '../client/index.js';
import { ErrorEnvelope, envelope, paginated } from '../schemas/common.js';
import { expect, expectJsonContentType, expectShape, expectStatus } from './expect.js';

/** Spec part 2: `error` string, `code` string, `details` array (its entries: not shown). */
export const SpecError = ErrorEnvelope.extend({ details: z.array(z.unknown()) });
/** Spec part 2: `data` object. */
export const SpecSuccess = envelope(z.record(z.string(), z.unknown()));
/** Spec part 2: the paginated envelope; page numbering is not shown, so any integer page. */
export const SpecPage = paginated(z.unknown()).extend({ page: z.number().int(), pageSize: z.number().int().min(0) });
/** Lists that are not paginated answer `{ data: [...] }` (D7). */
export const SpecList = z.object({ data: z.array(z.unknown()) });

export type Rule = string;

/** The answer has `status` and the error envelope of spec part 2, as JSON. */
export function expectError(result: ApiResult<unknown>, status: number | readonly number[], rule: Rule): z.infer<typeof SpecError> {
  expectStatus(result, status, rule);
  expectJsonContentType(result, `${rule} (error envelope)`);
  return expectShape(result, SpecError, `${rule}: the error envelope {error, code, details[]} (part 2)`);
}

/** The error envelope with a given `code` (D6). */
export function expectErrorCode(result: ApiResult<unknown>, status: number, code: string, rule: Rule): void {
  const body = expectError(result, status, rule);
  expect(body.code === code, rule, `expected code "${code}", got "${body.code}"`, result);
}

/** A 2xx answer whose body is the success envelope; answers `data`. */
export function expectSuccess(result: ApiResult<unknown>, status: number | readonly number[], rule: Rule): Record<string, unknown> {
  expectStatus(result, status, rule);
  expectJsonContentType(result, rule);
  return expectShape(result, SpecSuccess, `${rule}: the success envelope {data: object} (part 2)`).data;
}

/** The status every create answers: spec profile allows 200 or 201; the emulator says 201. */
export const CREATED_SPEC = [200, 201] as const;

/** Answers a string field of `data`, or fails naming it. */
export function stringField(data: Record<string, unknown>, field: string, rule: Rule, result: ApiResult<unknown>): string {
  const value = data[field];
  expect(typeof value === 'string' && value !== '', rule, `data.${field} is missing or not a string`, result);
  return value;
}
