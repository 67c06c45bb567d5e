/**
 * A Jepsen-style workload and checker for the fault tests of a shared store:
 * writers create users through every process and note each answer; a receiver notes every
 * delivery; afterwards the checker holds every acknowledged write against every process, every
 * acknowledged user's `user.created` against the deliveries, and the processes' clocks and DLQs
 * against each other.
 */
import { EVENT_ID_HEADER } from '../webhooks/signature.js';
import type { TestReceiver } from './receiver.js';

/** One create as the writer saw it: `status` 0 when no answer came (a timeout, a reset). */
export interface WriteOp {
  email: string;
  key: string;
  process: number;
  status: number;
  userId: string | null;
  startedAt: number;
  ms: number;
  code: string | null;
}

export interface CallResult<T = unknown> {
  status: number;
  body: T;
}

/** A JSON call with a bound; a call that gets no answer in time has status 0. */
export async function call<T = unknown>(
  origin: string,
  method: string,
  path: string,
  options: { key?: string; body?: unknown; timeoutMs?: number } = {},
): Promise<CallResult<T>> {
  try {
    const response = await fetch(`${origin}${path}`, {
      method,
      headers: {
        ...(options.key === undefined ? {} : { 'x-api-key': options.key }),
        ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
      signal: AbortSignal.timeout(options.timeoutMs ?? 20_000),
    });
    const text = await response.text();
    return { status: response.status, body: (text.startsWith('{') ? JSON.parse(text) : text) as T };
  } catch (error) {
    return { status: 0, body: String(error) as T };
  }
}

export interface Writers {
  readonly ops: WriteOp[];
  stop(): Promise<void>;
}

/**
 * `width` writers, each creating users one after another in the tenants of `keys` in turn
 * (`pauseMs` apart, as steady traffic rather than a flood), until stopped; writer i writes
 * through process i mod n of `origins()` (the processes alive at that instant), so a paused
 * process holds only its own writers.
 */
export function startWriters(origins: () => string[], keys: string[], width: number, pauseMs = 0): Writers {
  const ops: WriteOp[] = [];
  let running = true;
  let serial = 0;
  const stamp = Date.now();
  const loops = Array.from({ length: width }, async (_, writer) => {
    while (running) {
      const n = serial++;
      const live = origins();
      const process = writer % live.length;
      const key = keys[n % keys.length]!;
      const email = `w${writer}.${n}.${stamp}@faults.example`;
      const startedAt = Date.now();
      const answer = await call<{ data?: { id: string }; code?: string }>(live[process]!, 'POST', '/v1/users', { key, body: { email } });
      ops.push({
        email,
        key,
        process,
        status: answer.status,
        userId: answer.body?.data?.id ?? null,
        startedAt,
        ms: Date.now() - startedAt,
        code: answer.body?.code ?? null,
      });
      // A refused write is tried again a little later, as a client would: it does not spin.
      if (answer.status !== 201) await new Promise((resolve) => setTimeout(resolve, 50));
      else if (pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
  });
  return {
    ops,
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}

interface Arrival {
  userId: string | null;
  count: number;
}

/** The deliveries a receiver (test-support/receiver.ts) got, by event id: the user each names and how often it came. */
export function arrivalsOf(receiver: TestReceiver): Map<string, Arrival> {
  const arrivals = new Map<string, Arrival>();
  for (const request of receiver.received) {
    const eventId = String(request.headers[EVENT_ID_HEADER]);
    const seen = arrivals.get(eventId);
    if (seen) seen.count += 1;
    else arrivals.set(eventId, { userId: (JSON.parse(request.body.toString()) as { data?: { userId?: string } }).data?.userId ?? null, count: 1 });
  }
  return arrivals;
}

/** The users whose user.created a receiver got. */
export function deliveredUsers(receiver: TestReceiver): Set<string | null> {
  return new Set([...arrivalsOf(receiver).values()].map((arrival) => arrival.userId));
}

export interface Verdict {
  acknowledged: number;
  /** Acknowledged (201) but not readable through some process. */
  lost: string[];
  /** Acknowledged users whose user.created never arrived. */
  undelivered: string[];
  /** Events delivered more than once, and how many extra deliveries. */
  doubledEvents: number;
  extraDeliveries: number;
  /** Answers that were neither 201 nor 503 store_unavailable (nor no answer at all). */
  unexpected: WriteOp[];
}

/** Holds every acknowledged write against every process, and every acknowledged user against the deliveries. */
export async function check(ops: WriteOp[], origins: string[], receiver: TestReceiver): Promise<Verdict> {
  const acked = ops.filter((op) => op.status === 201 && op.userId !== null);
  const lost: string[] = [];
  for (const origin of origins) {
    for (let index = 0; index < acked.length; index += 32) {
      const answers = await Promise.all(
        acked
          .slice(index, index + 32)
          .map(async (op) => ({ op, answer: await call<{ data?: { email: string } }>(origin, 'GET', `/v1/users/${op.userId}`, { key: op.key }) })),
      );
      for (const { op, answer } of answers)
        if (answer.status !== 200 || answer.body.data?.email !== op.email) lost.push(`${op.userId} via ${origin}: ${answer.status}`);
    }
  }
  const delivered = deliveredUsers(receiver);
  const extra = [...arrivalsOf(receiver).values()].filter((arrival) => arrival.count > 1);
  return {
    acknowledged: acked.length,
    lost,
    undelivered: acked.filter((op) => !delivered.has(op.userId)).map((op) => op.userId!),
    doubledEvents: extra.length,
    extraDeliveries: extra.reduce((sum, arrival) => sum + arrival.count - 1, 0),
    unexpected: ops.filter((op) => op.status !== 201 && op.status !== 0 && !(op.status === 503 && op.code === 'store_unavailable')),
  };
}
