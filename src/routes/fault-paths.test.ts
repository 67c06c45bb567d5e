import { describe, expect, it } from 'vitest';
import { closestRoutes, faultPathProblem, pathMeetsRoute, type ApiRoute } from './fault-paths.js';

const ROUTES: ApiRoute[] = [
  { method: 'GET', path: '/users' },
  { method: 'POST', path: '/users' },
  { method: 'GET', path: '/users/:id' },
  { method: 'GET', path: '/users/me/wallet' },
  { method: 'POST', path: '/webhooks/:id/test' },
  { method: 'GET', path: '/webhooks/:id/deliveries' },
  { method: 'GET', path: '/readyz' },
];

describe('pathMeetsRoute', () => {
  it.for([
    ['/users', '/users', true],
    ['/users/:id', '/users/:id', true],
    ['/users/{id}', '/users/:id', true],
    ['/users/usr_123', '/users/:id', true],
    ['/users/:id', '/users/me/wallet', false],
    ['/users/*/wallet', '/users/me/wallet', true],
    ['/user*', '/users', true],
    ['/webhooks/*', '/webhooks/:id/test', true],
    ['/webhooks/*', '/users', false],
    ['/*', '/readyz', true],
    ['/nope/:x/y', '/users/me/wallet', false],
    ['/users/:id/x', '/users/:id', false],
  ] as const)('%s against %s → %s', ([fault, route, expected]) => {
    expect(pathMeetsRoute(fault, route)).toBe(expected);
  });
});

describe('faultPathProblem', () => {
  it('accepts a path and method some route has, concrete, templated, with /v1 or a HEAD for a GET', () => {
    for (const fault of [{ path: '/users/usr_1' }, { path: '/v1/users/:id', method: 'GET' }, { path: '/webhooks/*' }, { path: '/readyz', method: 'HEAD' }]) {
      expect(faultPathProblem(fault, ROUTES), fault.path).toBeNull();
    }
  });

  it('refuses a path no route has, naming the three closest routes', () => {
    expect(faultPathProblem({ path: '/user/:id' }, ROUTES)).toBe(
      'no /v1 route matches /user/:id, so the fault would never fire; the closest: /users/:id, /users, /readyz',
    );
    expect(closestRoutes('/webhook/:id/tset', ROUTES, 1)).toEqual(['/webhooks/:id/test']);
  });

  it('refuses a method none of the matching routes answers, naming those it does', () => {
    expect(faultPathProblem({ path: '/users', method: 'DELETE' }, ROUTES)).toBe(
      'no DELETE route matches /users, so the fault would never fire; it matches GET /users, POST /users',
    );
  });
});
