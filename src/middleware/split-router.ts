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
 * The split is made just after the first request, which a TrieRouter of every route answers,
 * and made again after routes are added later.
 */
import { UnsupportedPathError, type ParamIndexMap, type Params, type Result, type Router } from 'hono/router';
import { RegExpRouter } from 'hono/router/reg-exp-router';
import { TrieRouter } from 'hono/router/trie-router';

type Route<T> = [method: string, path: string, handler: T];

/**
 * The part of a route's path before its first parameter or wildcard: a path it matches starts
 * with it. The slash before a closing wildcard is left out, since `/x/*` matches `/x` too.
 */
export function fixedPrefix(path: string): string {
  const end = path.search(/[:*]/);
  if (end === -1) return path;
  return path[end] === '*' && path[end - 1] === '/' ? path.slice(0, end - 1) : path.slice(0, end);
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
  #built = false;
  /** Every route in one TrieRouter, as Hono's SmartRouter ends up: what answers until the split is made. */
  #interim: TrieRouter<T> | null = null;
  #regExp: RegExpRouter<T> | null = null;
  #trie: TrieRouter<T> | null = null;
  /** The fixed prefixes of the routes in the trie. */
  #triePrefixes: string[] = [];
  /** Each handler's place in the order of add(), to merge the two routers' answers. */
  #order = new Map<T, number>();

  /**
   * Routes may come after the first match: an area of the app is added on its first request
   * (app.ts). The routers made so far are then dropped, and the next match is answered as the
   * first was, by a TrieRouter of every route, with the split made again just after it.
   */
  add(method: string, path: string, handler: T): void {
    this.#order.set(handler, this.#routes.length);
    this.#routes.push([method, path, handler]);
    if (this.#interim !== null || this.#regExp !== null) this.#reset();
  }

  #reset(): void {
    this.#built = false;
    this.#interim = null;
    this.#regExp = null;
    this.#trie = null;
    this.#triePrefixes = [];
  }

  /**
   * Splits the routes between the two routers. Making the split costs several RegExpRouters
   * (one more for each refused route that is middleware for every method, which may have been
   * half added), about three times what one TrieRouter costs, so the first request is answered
   * by a TrieRouter of every route and the split is made just after it, off the path of a start.
   */
  #build(): void {
    if (this.#built) return;
    this.#built = true;
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
    const regExp = regExpRouterOf(inOrder(taken));
    regExp.match('GET', '/'); // builds its matchers now rather than at the next request
    if (refused.length > 0) {
      const trie = new TrieRouter<T>();
      for (const route of inOrder(refused)) trie.add(...route);
      this.#trie = trie;
      this.#triePrefixes = [...new Set(refused.map(([, path]) => fixedPrefix(path)))];
    }
    this.#regExp = regExp;
    this.#interim = null;
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
        setTimeout(() => this.#build(), 0).unref();
      }
      return this.#interim.match(method, path);
    }
    const found = this.#regExp.match(method, path);
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
