import { describe, expect, it } from 'vitest';
import { newRequestId } from './request-id.js';

describe('newRequestId', () => {
  it('answers req_ and 20 base62 characters, a new one each time', () => {
    const ids = Array.from({ length: 5_000 }, newRequestId);
    for (const id of ids) expect(id).toMatch(/^req_[0-9A-Za-z]{20}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('uses every base62 character about as often', () => {
    const counts = new Map<string, number>();
    for (let i = 0; i < 5_000; i++) for (const char of newRequestId().slice(4)) counts.set(char, (counts.get(char) ?? 0) + 1);
    // 100,000 characters: about 1,613 each; a biased `% 62` would give the first eight ~25% more.
    expect(counts.size).toBe(62);
    for (const count of counts.values()) expect(count).toBeGreaterThan(1_350);
    for (const count of counts.values()) expect(count).toBeLessThan(1_900);
  });
});
