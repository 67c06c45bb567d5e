/**
 * Removing what a run created, at its end: after failures, after --bail and after Ctrl-C alike.
 * Removals run stage by stage (types.ts CleanupStage; the last two side by side), each within a
 * time limit; a removal that fails is reported, never thrown.
 */
import type { Cleanup, CleanupStage } from './types.js';

export interface CleanupResult {
  description: string;
  ok: boolean;
  error?: string;
}

const CLEANUP_TIMEOUT_MS = 15_000;
/**
 * Removals at once per check the run let run at once: a removal is one request or two, where
 * a check may keep many in flight, so a run's fifty-odd removals go out in one wave or two
 * instead of four (through 150 ms of latency, each wave is a round trip). `--concurrency 1`
 * still removes one thing at a time.
 */
export const REMOVALS_PER_CHECK = 4;
const MAX_REMOVALS_AT_ONCE = 64;

/** How many removals of a stage run at once, for a run of `concurrency`. */
export function removalsAtOnce(concurrency: number): number {
  return concurrency <= 1 ? 1 : Math.min(MAX_REMOVALS_AT_ONCE, concurrency * REMOVALS_PER_CHECK);
}
/**
 * The stages in the order they run: each step starts when the one before has ended. The
 * webhooks and the tenant's settings go side by side: the settings were for sessions the steps
 * before have ended, and removing a webhook waits on nothing they hold.
 */
const STEPS: ReadonlyArray<readonly CleanupStage[]> = [['first'], ['records'], ['webhooks', 'tenant']];

async function removeOne(entry: Cleanup): Promise<CleanupResult> {
  try {
    await Promise.race([entry.run(), new Promise((_, reject) => setTimeout(() => reject(new Error('timed out')), CLEANUP_TIMEOUT_MS).unref())]);
    return { description: entry.description, ok: true };
  } catch (error) {
    return { description: entry.description, ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

/** One stage's removals, last registered first: up to removalsAtOnce(concurrency) at once, the tenant's one at a time. */
async function removeStage(
  cleanups: Cleanup[],
  stage: CleanupStage,
  concurrency: number,
  onCleanup?: (outcome: CleanupResult) => void,
): Promise<CleanupResult[]> {
  const entries = cleanups.filter((entry) => (entry.stage ?? 'records') === stage).reverse();
  const slots = stage === 'tenant' ? 1 : removalsAtOnce(concurrency);
  const outcomes = new Array<CleanupResult>(entries.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let index = next++; index < entries.length; index = next++) {
      outcomes[index] = await removeOne(entries[index]!);
      onCleanup?.(outcomes[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(slots, entries.length) }, worker));
  return outcomes;
}

/**
 * Runs the removals step by step (STEPS), stage by stage within a step. The outcomes are listed
 * stage by stage in that order, whatever order they end in.
 */
export async function removeAll(cleanups: Cleanup[], concurrency: number, onCleanup?: (outcome: CleanupResult) => void): Promise<CleanupResult[]> {
  const outcomes: CleanupResult[] = [];
  for (const step of STEPS) {
    const stages = await Promise.all(step.map((stage) => removeStage(cleanups, stage, concurrency, onCleanup)));
    outcomes.push(...stages.flat());
  }
  return outcomes;
}
