/**
 * Whether a fault's path (and method) can match any /v1 route: a fault whose path
 * matches no route never fires, so POST /_emulator/faults refuses it and names the closest
 * routes instead of accepting it silently. A fault path may be concrete (`/users/usr_1`), hold
 * parameters (`/users/:id`), globs within a segment (`/user*`) or end in `/*` (see
 * services/faults.ts); a route template holds literal segments and `:param` ones.
 */

/** A /v1 route as the app holds it, relative to /v1: `{ method: 'GET', path: '/users/:id' }`. */
export interface ApiRoute {
  method: string;
  path: string;
}

import { relativePath } from '../services/faults.js';

const PARAM = /^(:\w+|\{\w+\})$/;

/** Whether some request path is matched both by the fault's path segment and the route's. */
function segmentsMeet(fault: string, route: string): boolean {
  if (route.startsWith(':') || PARAM.test(fault)) return true;
  const glob = new RegExp(`^${fault.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}$`);
  return glob.test(route);
}

/** Whether a request matched by the fault's path can reach the route. */
export function pathMeetsRoute(faultPath: string, routePath: string): boolean {
  const below = faultPath.endsWith('/*');
  const fault = (below ? faultPath.slice(0, -2) : faultPath).split('/').filter(Boolean);
  const route = routePath.split('/').filter(Boolean);
  if (below ? route.length < fault.length : route.length !== fault.length) return false;
  return fault.every((segment, i) => segmentsMeet(segment, route[i]!));
}

/** Edit distance between two strings (insert, delete, replace one character). */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length]!;
}

/** The routes nearest to the fault's path by edit distance (parameters written `:id` on both sides), at most `count`. */
export function closestRoutes(faultPath: string, routes: readonly ApiRoute[], count = 3): string[] {
  const normal = faultPath.replace(/\{(\w+)\}/g, ':$1');
  const paths = [...new Set(routes.map((route) => route.path))];
  return paths
    .map((path) => ({ path, far: distance(normal, path) }))
    .sort((a, b) => a.far - b.far || a.path.localeCompare(b.path))
    .slice(0, count)
    .map(({ path }) => path);
}

/** Why the fault can never fire, or null when some route can be hit by it. */
export function faultPathProblem(fault: { path: string; method?: string | undefined }, routes: readonly ApiRoute[]): string | null {
  const path = relativePath(fault.path);
  const reached = routes.filter((route) => pathMeetsRoute(path, route.path));
  if (reached.length === 0) return `no /v1 route matches ${fault.path}, so the fault would never fire; the closest: ${closestRoutes(path, routes).join(', ')}`;
  // Hono answers HEAD with the GET route.
  const method = fault.method === 'HEAD' ? 'GET' : fault.method;
  if (method === undefined || reached.some((route) => route.method === method)) return null;
  const methods = [...new Set(reached.map((route) => `${route.method} ${route.path}`))].sort();
  return `no ${fault.method} route matches ${fault.path}, so the fault would never fire; it matches ${methods.join(', ')}`;
}
