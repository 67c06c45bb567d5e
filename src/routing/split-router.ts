/**
 * The app's router: Hono's RegExpRouter for every route it can take, its TrieRouter for the
 * few it cannot, and one answer merged in the order the routes were added.
 *
 * Hono's default (SmartRouter) uses RegExpRouter, one regular expression per method, unless a
 * single route makes it throw, and then TrieRouter for everything. RegExpRouter refuses a
 * static segment beside a parameter in the same place, and the spec has two such pairs
 * (`/users/me/wallet` beside `/users/{id}`, `/guests/cleanup` beside `/guests/{id}/convert`),
 * so every request paid a trie walk over some 200 routes and middleware. Here the routes with
 * parameters go to RegExpRouter first, then the others; a route it refuses goes to a
 * TrieRouter instead. A request asks the trie only when its path starts with the fixed part
 * (up to the first parameter or wildcard) of one of the trie's routes, so a request that no
 * such route can match costs one RegExpRouter match, as in a Hono app with no such pair.
 *
 * That match costs more the more routes its method's expression holds (the answer is an array
 * with a slot for every route and parameter): a GET by id took 330 ns among this app's routes,
 * against 110 ns among those that can match a path under `/v1/users`. So the routes are parted
 * by the first two segments of the paths they match (`/v1/users`, `/healthz`), and each part
 * gets a RegExpRouter of its own routes and of the routes that match paths of several parts
 * (those with a parameter or a wildcard in their first two segments: middleware for `*` and
 * `/v1/*`). A request is matched by its part's RegExpRouter, or by the one of those shared
 * routes alone when no route is confined to its part.
 *
 * The split is made just after the first request, which a TrieRouter of every route answers
 * (building it within that request made a start about 20 ms slower), and made again after a
 * route is added late. It is a router given to `new Hono({ router })`; its measured gain is on
 * docs/http-layer.md.
 */
import { UnsupportedPathError, type ParamIndexMap, type Params, type Result, type Router } from 'hono/router';
import { RegExpRouter } from 'hono/router/reg-exp-router';
import { TrieRouter } from 'hono/router/trie-router';

type Route<T> = [method: string, path: string, handler: T];

/**
 * The part of a route's path before its first parameter or wildcard, without the slash before
 * it: a path the route matches starts with it (`/x/*` and `/x/:id?` match `/x` too).
 */
export function fixedPrefix(path: string): string {
  const end = path.search(/[:*]/);
  if (end === -1) return path;
  return path[end - 1] === '/' ? path.slice(0, end - 1) : path.slice(0, end);
}

/** The length of a path's first two segments, or of all of it when it has fewer: the part a request is matched in. */
function partLength(path: string): number {
  const second = path.indexOf('/', 1);
  const third = second === -1 ? -1 : path.indexOf('/', second + 1);
  return third === -1 ? path.length : third;
}

/**
 * The part of every path a route matches (see above), or null when it matches paths of more
 * than one part: a parameter or wildcard in its first two segments.
 */
export function partOfRoute(path: string): string | null {
  const part = path.slice(0, partLength(path));
  return /[:*]/.test(part) ? null : part;
}

/** A RegExpRouter holding `routes`. */
function regExpRouterOf<T>(routes: readonly Route<T>[]): RegExpRouter<T> {
  const router = new RegExpRouter<T>();
  for (const [method, path, handler] of routes) router.add(method, path, handler);
  return router;
}

export class SplitRouter<T> implements Router<T> {
  name = 'SplitRouter';
  #routes: Route<T>[] = [];
  /** Every route in one TrieRouter, as Hono's SmartRouter ends up: what answers until the split is made. */
  #interim: TrieRouter<T> | null = null;
  /** The RegExpRouter of the routes shared by every part; null until the split is made. */
  #regExp: RegExpRouter<T> | null = null;
  /**
   * Each part and its RegExpRouter, by the length of the part: a request's part is found by
   * comparing the start of its path, without a string made of it to look up (which took
   * longer than the smaller expression saved).
   */
  #parts: Array<Array<[part: string, router: RegExpRouter<T>]> | undefined> = [];
  #trie: TrieRouter<T> | null = null;
  /** The fixed prefixes of the routes in the trie. */
  #triePrefixes: string[] = [];
  /** Each handler's place in the order of add(), to merge the two routers' answers. */
  #order = new Map<T, number>();
  /** The split to be made just after the first match. */
  #pending: NodeJS.Timeout | null = null;

  /** A route added after the split undoes it: the next match is answered by a TrieRouter of every route, and the split made again just after. */
  add(method: string, path: string, handler: T): void {
    this.#order.set(handler, this.#routes.length);
    this.#routes.push([method, path, handler]);
    this.#regExp = null;
    this.#interim = null;
  }

  /**
   * Splits the routes between the two routers. Making the split costs several RegExpRouters
   * (one more for each refused route that is middleware for every method, which may have been
   * half added), about three times what one TrieRouter costs, so the first request is answered
   * by a TrieRouter of every route and the split is made just after it, off the path of a start.
   */
  #build(): void {
    if (this.#pending !== null) clearTimeout(this.#pending);
    this.#pending = null;
    if (this.#regExp !== null) return;
    const routes = this.#routes;
    const taken: Route<T>[] = [];
    const refused: Route<T>[] = [];
    let router: RegExpRouter<T> = new RegExpRouter<T>();
    // Routes with parameters first: of two that RegExpRouter cannot hold together, the static one goes to the trie.
    for (const route of [...routes.filter(([, path]) => path.includes(':')), ...routes.filter(([, path]) => !path.includes(':'))]) {
      try {
        router.add(...route);
        taken.push(route);
      } catch (error) {
        if (!(error instanceof UnsupportedPathError)) throw error;
        refused.push(route);
        // A route of one method that is refused leaves at most a dead branch in that method's
        // trie, which holds no handler; one for every method may have been added to some
        // methods before another refused it: start again from the routes taken.
        if (route[0] === 'ALL' || route[1].includes('?')) router = regExpRouterOf(taken);
      }
    }
    // RegExpRouter keeps each method's handlers in the order they were given: the order of add().
    const inOrder = (list: Route<T>[]): Route<T>[] => list.sort((a, b) => this.#order.get(a[2])! - this.#order.get(b[2])!);
    const shared: Route<T>[] = [];
    const confined = new Map<string, Route<T>[]>();
    for (const route of inOrder(taken)) {
      const part = partOfRoute(route[1]);
      if (part === null) shared.push(route);
      else if (confined.has(part)) confined.get(part)!.push(route);
      else confined.set(part, [route]);
    }
    // Each router builds its matchers now rather than at its part's next request.
    const regExp = regExpRouterOf(shared);
    regExp.match('GET', '/');
    const parts: Array<Array<[string, RegExpRouter<T>]> | undefined> = [];
    for (const [part, routes] of confined) {
      const router = regExpRouterOf(inOrder([...shared, ...routes]));
      router.match('GET', '/');
      (parts[part.length] ??= []).push([part, router]);
    }
    let trie: TrieRouter<T> | null = null;
    if (refused.length > 0) {
      trie = new TrieRouter<T>();
      for (const route of inOrder(refused)) trie.add(...route);
    }
    this.#trie = trie;
    this.#triePrefixes = [...new Set(refused.map(([, path]) => fixedPrefix(path)))];
    this.#regExp = regExp;
    this.#parts = parts;
    this.#interim = null;
  }

  /** The RegExpRouter of the request's part, or that of the shared routes when no route is confined to it. */
  #regExpFor(path: string): RegExpRouter<T> {
    const candidates = this.#parts[partLength(path)];
    if (candidates !== undefined) for (const [part, router] of candidates) if (path.startsWith(part)) return router;
    return this.#regExp!;
  }

  #mayBeInTrie(path: string): boolean {
    for (const prefix of this.#triePrefixes) if (path.startsWith(prefix)) return true;
    return false;
  }

  match(method: string, path: string): Result<T> {
    if (this.#regExp === null) {
      if (this.#interim === null) {
        const interim = new TrieRouter<T>();
        for (const route of this.#routes) interim.add(...route);
        this.#interim = interim;
        this.#pending ??= setTimeout(() => this.#build(), 0);
        this.#pending.unref();
      }
      return this.#interim.match(method, path);
    }
    const found = this.#regExpFor(path).match(method, path);
    if (this.#trie === null || !this.#mayBeInTrie(path)) return found;
    const more = this.#trie.match(method, path) as [[T, Params][]];
    if (more[0].length === 0) return found;
    if (found[0].length === 0) return more;
    // Both answered: one list in the order of add(), with the parameters as values.
    const [entries, stash] = found as [[T, ParamIndexMap][], string[]];
    const merged: [T, Params][] = entries.map(([handler, map]) => {
      const params: Params = {};
      for (const name in map) params[name] = stash[map[name]!]!;
      return [handler, params];
    });
    merged.push(...more[0]);
    merged.sort((a, b) => this.#order.get(a[0])! - this.#order.get(b[0])!);
    return [merged];
  }

  /** Makes the split now (tests; otherwise it is made just after the first request). */
  split(): this {
    this.#build();
    return this;
  }
}
