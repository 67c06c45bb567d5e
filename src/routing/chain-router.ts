/**
 * A router that answers Hono with one handler per request: the middleware and route handlers
 * that the router beneath matched, run in order by one function that stays synchronous while
 * each of them does.
 *
 * Hono runs a request that matches one handler directly, and one that matches several through
 * compose(): an async step per handler, so every call of the API (response headers, the /v1
 * middleware, then the route) became a chain of promises, and @hono/node-server, handed a
 * promise instead of a Response, takes its slower path (a close listener per request, the
 * answer written a microtask later). Here the chain keeps compose()'s rules: handlers in
 * order, each given next(); an Error thrown or rejected at any step goes to the app's error
 * handler at that step, so the middleware around it see an answer, as they would; a chain
 * that ends without one is not found; one whose middleware calls next() twice fails. But a
 * step that answers synchronously is not wrapped in a promise, so a GET whose middleware
 * and handler are all synchronous gives node-server its Response at once.
 *
 * The single handler carries the parameters of every step it runs; a chain whose steps bind
 * one name to two places (which this app does not have) is left to Hono's compose() instead.
 * It is a router given to `new Hono({ router })`, over what Hono's option types say it keeps
 * per route (`[H, RouterRoute]`); its measured gain is on docs/http-layer.md.
 */
import type { Context, ErrorHandler, Next } from 'hono';
import type { ParamIndexMap, Params, Result, Router } from 'hono/router';
import type { H, RouterRoute } from 'hono/types';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyHandler = (c: Context<any>, next: Next) => unknown;
/** What a Hono app keeps in its router for each route (HonoOptions['router']): the handler and the route. */
type Stored = [H, RouterRoute];
type Entry = [Stored, ParamIndexMap | Params];

const NOT_FINALIZED = 'Context is not finalized. Did you forget to return a Response object or `await next()`?';

const isPromise = (value: unknown): value is Promise<unknown> => value instanceof Promise;

/** One map of parameters for the whole chain, or null when two steps bind one name differently. */
function mergedParams(entries: readonly Entry[]): ParamIndexMap | Params | null {
  if (entries.length === 0) return {};
  const merged: Record<string, string | number> = {};
  for (const [, params] of entries) {
    for (const name in params) {
      const value = params[name]!;
      if (name in merged && merged[name] !== value) return null;
      merged[name] = value;
    }
  }
  return merged as ParamIndexMap | Params;
}

/** One request's run through a chain: the state compose() keeps in its closure. */
class Run {
  index = -1;

  constructor(
    readonly handlers: readonly AnyHandler[],
    readonly onError: ErrorHandler | undefined,
    readonly c: Context,
    /** Hono's own next for a single handler: it answers not found. */
    readonly last: Next,
  ) {}

  dispatch(i: number): Context | Promise<Context> {
    if (i <= this.index) throw new Error('next() called multiple times');
    this.index = i;
    const handler = this.handlers[i];
    let res: unknown;
    try {
      if (handler === undefined) res = this.c.finalized ? undefined : this.last();
      // Hono types next() as a promise; here it is one only when a later step answers later.
      else res = handler(this.c, (() => this.dispatch(i + 1)) as unknown as Next);
    } catch (error) {
      return this.failed(error);
    }
    return isPromise(res)
      ? res.then(
          (r) => this.settle(r, false),
          (error: unknown) => this.failed(error),
        )
      : this.settle(res, false);
  }

  settle(res: unknown, isError: boolean): Context {
    if (res && (this.c.finalized === false || isError)) this.c.res = res as Response;
    return this.c;
  }

  failed(error: unknown): Context | Promise<Context> {
    if (!(error instanceof Error) || this.onError === undefined) throw error;
    this.c.error = error;
    const res = this.onError(error, this.c);
    return isPromise(res) ? res.then((r) => this.settle(r, true)) : this.settle(res, true);
  }
}

function finish(context: Context): Response {
  if (!context.finalized) throw new Error(NOT_FINALIZED);
  return context.res;
}

/** Runs `handlers` as Hono's compose() would, synchronously while they are; `onError` is the app's error handler. */
export function runChain(handlers: readonly AnyHandler[], onError: ErrorHandler | undefined): (c: Context, last: Next) => Response | Promise<Response> {
  return (c, last) => {
    const done = new Run(handlers, onError, c, last).dispatch(0);
    return isPromise(done) ? done.then(finish) : finish(done);
  };
}

export class ChainRouter implements Router<Stored> {
  readonly name: string;
  readonly #inner: Router<Stored>;
  readonly #onError: ErrorHandler;
  /**
   * The chain made for each list of matches the router beneath answers again and again
   * (RegExpRouter does), as the one-entry list a match answers: shared, as the lists the
   * router beneath answers are.
   */
  readonly #chains = new WeakMap<object, [Entry] | null>();

  /** `onError` is the handler the app is given with app.onError(): the one compose() would call. */
  constructor(inner: Router<Stored>, onError: ErrorHandler) {
    this.#inner = inner;
    this.#onError = onError;
    this.name = `ChainRouter + ${inner.name}`;
  }

  add(method: string, path: string, handler: Stored): void {
    this.#inner.add(method, path, handler);
  }

  match(method: string, path: string): Result<Stored> {
    const result = this.#inner.match(method, path);
    const entries = result[0] as Entry[];
    if (entries.length < 2) return result;
    let chain = this.#chains.get(entries);
    if (chain === undefined) {
      const params = mergedParams(entries);
      const route = entries[entries.length - 1]![0][1];
      const handlers = entries.map(([stored]) => stored[0] as AnyHandler);
      chain = params === null ? null : [[[runChain(handlers, this.#onError), route], params]];
      this.#chains.set(entries, chain);
    }
    if (chain === null) return result;
    return (result.length === 2 ? [chain, result[1]] : [chain]) as Result<Stored>;
  }
}
