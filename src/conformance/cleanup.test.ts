/**
 * Removing what a run created (cleanup.ts): how many removals of a stage go at once.
 */
import { describe, expect, it } from 'vitest';
import { removalsAtOnce, removeAll, REMOVALS_PER_CHECK } from './cleanup.js';
import type { Cleanup } from './types.js';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** `count` removals of records that each take a few milliseconds, and the most of them that ran at once. */
function removals(count: number): { entries: Cleanup[]; most: () => number } {
  let running = 0;
  let most = 0;
  const entries = Array.from({ length: count }, (_, index) => ({
    description: `record ${index}`,
    run: async () => {
      running += 1;
      most = Math.max(most, running);
      await sleep(5);
      running -= 1;
    },
  }));
  return { entries, most: () => most };
}

describe('removeAll', () => {
  it('removes a few times as many records at once as the run ran checks, and one at a time at --concurrency 1', async () => {
    const wide = removals(100);
    const outcomes = await removeAll(wide.entries, 8);
    expect(outcomes.every((outcome) => outcome.ok)).toBe(true);
    expect(wide.most()).toBe(8 * REMOVALS_PER_CHECK);
    const narrow = removals(5);
    await removeAll(narrow.entries, 1);
    expect(narrow.most()).toBe(1);
    expect(removalsAtOnce(64)).toBe(64);
  });
});
