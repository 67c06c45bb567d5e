/**
 * The one assertion on the error envelope (D6) that the route tests share: the status,
 * JSON with exactly `error`, `code` and `details`, the code, no stack trace, and when given the
 * fields `details` names.
 */
import { expect } from 'vitest';
import type { ApiResponse } from './harness.js';

const JSON_UTF8 = 'application/json; charset=utf-8';

export function expectError(res: Pick<ApiResponse, 'status' | 'headers' | 'body' | 'text'>, status: number, code: string, paths?: string[]): void {
  expect(res.status, res.text).toBe(status);
  expect(res.headers.get('content-type')).toBe(JSON_UTF8);
  expect(Object.keys(res.body).sort()).toEqual(['code', 'details', 'error']);
  expect(res.body.code, res.text).toBe(code);
  expect(typeof res.body.error).toBe('string');
  expect(Array.isArray(res.body.details)).toBe(true);
  expect(res.text).not.toMatch(/\n\s+at /);
  // A field may fail more than one rule (an origin that is no URL breaks the origin pattern too).
  if (paths) expect([...new Set(res.body.details.map((d: { path: string }) => d.path))].sort()).toEqual([...paths].sort());
}
