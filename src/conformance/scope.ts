/**
 * Which check a request belongs to, for the transport: every request a check makes (through
 * any of the run's clients) is counted against the check's request budget, and once the check
 * has ended — passed, failed, errored, or stopped by its budget or by Ctrl-C — it may make no
 * more. A check that fails while calls of its own are still going (the rate-limit check keeps
 * two hundred in flight) thus sends nothing after its result, and nothing after cleanup has
 * revoked a key it made. Values the checks of a run share are made outside any check, so they
 * count against none and outlive the check that asked first.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

/** The requests one check may make unless it declares its own budget (types.ts `budget`): over ten times the most any other check made in a run against the emulator (15). */
export const DEFAULT_REQUEST_BUDGET = 200;

/** Thrown to a call a check makes after it has ended: the call is not sent. */
export class CheckStopped extends Error {
  constructor(
    readonly checkId: string,
    reason: string,
  ) {
    super(`${checkId} made a request after it had ${reason}; it was not sent`);
    this.name = 'CheckStopped';
  }
}

/** One check's requests: how many it made, how many are in flight, and whether it may make more. */
export class CheckScope {
  requests = 0;
  private inFlight = 0;
  private stoppedFor: string | undefined;
  private idle: Array<() => void> = [];
  /** Set once the budget stopped the check. */
  budgetHit = false;

  constructor(
    readonly checkId: string,
    readonly budget: number,
  ) {}

  /** Counts one request of the check, or refuses it (CheckStopped) when the check has ended or its budget is spent. */
  admit(): void {
    if (this.stoppedFor !== undefined) throw new CheckStopped(this.checkId, this.stoppedFor);
    if (this.requests >= this.budget) {
      this.budgetHit = true;
      this.stop(`hit its request budget of ${this.budget}`);
      throw new CheckStopped(this.checkId, this.stoppedFor!);
    }
    this.requests += 1;
    this.inFlight += 1;
  }

  /** One admitted request has its answer (or its error). */
  release(): void {
    this.inFlight -= 1;
    if (this.inFlight === 0) for (const wake of this.idle.splice(0)) wake();
  }

  /** No request of the check is sent from now on. */
  stop(reason: string): void {
    this.stoppedFor ??= reason;
  }

  /** Resolves once none of the check's requests is in flight, or after `limitMs`. */
  async settled(limitMs: number): Promise<void> {
    if (this.inFlight === 0) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, limitMs);
      timer.unref();
      this.idle.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}

const current = new AsyncLocalStorage<CheckScope>();

/** Runs `work` as `scope`'s check: every request it makes, however deep, is the check's. */
export function inCheck<T>(scope: CheckScope, work: () => T): T {
  return current.run(scope, work);
}

/** Runs `work` outside any check (a value the checks share, made once). */
export function outsideChecks<T>(work: () => T): T {
  return current.exit(work);
}

/** The check the calling code runs for, if any. */
export function currentCheck(): CheckScope | undefined {
  return current.getStore();
}
