/**
 * Several middleware run as one step of Hono's chain. Hono runs each middleware a route
 * matches through an async step of its own (a promise, an await and a try per step, on every
 * request); the /v1 middleware that every call passes through (faults, body, key, rate limit)
 * go on with next() and do nothing after it, so they can share one step. What one of them
 * throws goes to the app's error handler as it would from a step of its own, and what one
 * answers (a fault) is the answer.
 */
import type { Context, Env, MiddlewareHandler, Next } from 'hono';

export function inSequence<E extends Env>(...handlers: MiddlewareHandler<E>[]): MiddlewareHandler<E> {
  return (c, next) => step(handlers, 0, c, next);
}

function step<E extends Env>(handlers: readonly MiddlewareHandler<E>[], i: number, c: Context<E, string>, next: Next): ReturnType<Next> {
  return i === handlers.length ? next() : (handlers[i]!(c, () => step(handlers, i + 1, c, next)) as ReturnType<Next>);
}
