/**
 * No false alarm on a deployment that answers rightly in its own way: through a proxy
 * that adds fields to every JSON object, puts the keys of each in another order and words every
 * error message differently — and then also answers 150 ms late — the whole suite passes. A check
 * that held a deployment to svc's words, key order or speed rather than to the rules would fail here.
 */
import { describe, expect, it } from 'vitest';
import { CATALOGUE } from '../src/conformance/catalogue.js';
import { breakageTarget } from '../src/test-support/breakage-run.js';
import type { Breakage, ProxiedResponse } from '../src/test-support/broken-server.js';

const target = breakageTarget();

/** Every object with an extra field and its keys in reverse order; error messages in other words. */
function variant(value: unknown, inError: boolean): unknown {
  if (Array.isArray(value)) return value.map((item) => variant(item, inError));
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value as Record<string, unknown>).reverse();
  const out: Record<string, unknown> = { xVariantNote: 'a field svc does not send' };
  for (const [key, item] of entries)
    out[key] =
      inError && (key === 'error' || key === 'message') && typeof item === 'string' ? `Said otherwise: ${item.length} characters` : variant(item, inError);
  return out;
}

const reworded = (_q: unknown, r: ProxiedResponse): ProxiedResponse | undefined => {
  if (!(r.headers['content-type'] ?? '').includes('application/json') || r.body === '') return undefined;
  return { ...r, body: JSON.stringify(variant(JSON.parse(r.body), r.status >= 400)) };
};

const VARIANTS: Array<{ name: string; breakage: Breakage }> = [
  { name: 'adds fields, reorders keys and rewords errors', breakage: { response: reworded } },
  { name: 'does the same 150 ms late', breakage: { response: reworded, latencyMs: 150 } },
];

describe('the conformance suite against deployments that differ only where the spec leaves room', () => {
  it.each(VARIANTS)(
    'passes every check through a proxy that $name',
    async ({ breakage }) => {
      const report = await target.run(breakage, []);
      // The rate-limit check may skip on a machine too loaded to outrun the refill (it proves nothing then).
      const bad = report.results.filter((r) => r.outcome !== 'passed' && !(r.id === 'rate-limits.429' && r.outcome === 'skipped'));
      expect(bad.map((r) => `${r.id}: ${r.reason}`)).toEqual([]);
      expect(report.results.length).toBe(CATALOGUE.filter((check) => check.slow !== true).length);
    },
    120_000,
  );
});
