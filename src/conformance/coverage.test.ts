/**
 * The run's coverage: requests matched to the document's operations by method and path
 * template (a literal path before a templated one), the share of documented (operation, status)
 * pairs exercised, and a status the document does not list counting for nothing.
 */
import { describe, expect, it } from 'vitest';
import { belowMinimum, coverageLine, coverageOf, neverExercised } from './coverage.js';

const document = {
  paths: {
    '/v1/users/{id}': { get: { operationId: 'getUser', responses: { '200': {}, '404': {} } } },
    '/v1/users/me/wallet': { get: { operationId: 'getWallet', responses: { '200': {}, '401': {} } } },
    '/v1/users': {
      get: { operationId: 'listUsers', responses: { '200': {}, default: {} } },
      post: { operationId: 'createUser', responses: { '201': {}, '409': {} } },
    },
  },
};

const answer = (method: string, path: string, status: number) => ({ method, url: `http://127.0.0.1:4010${path}`, status });

describe('coverage', () => {
  it('matches each answer to its operation by method and path template, the literal path first', () => {
    const coverage = coverageOf(
      document,
      [
        answer('GET', '/v1/users/usr_1', 200),
        answer('GET', '/v1/users/usr_2?x=1', 404),
        answer('GET', '/v1/users/me/wallet', 401),
        answer('get', '/v1/users', 200),
        answer('GET', '/v1/users', 418),
        answer('DELETE', '/v1/users/usr_1', 405),
        answer('GET', '/_emulator/health', 200),
      ],
      ['user.created', 'user.created', 'api_key.created'],
    );
    expect(coverage.operations).toEqual([
      { operationId: 'getUser', method: 'GET', path: '/v1/users/{id}', documented: [200, 404], exercised: [200, 404] },
      { operationId: 'getWallet', method: 'GET', path: '/v1/users/me/wallet', documented: [200, 401], exercised: [401] },
      { operationId: 'listUsers', method: 'GET', path: '/v1/users', documented: [200], exercised: [200, 418] },
      { operationId: 'createUser', method: 'POST', path: '/v1/users', documented: [201, 409], exercised: [] },
    ]);
    // 418 is not documented: it counts for nothing. 4 of 7 documented pairs.
    expect([coverage.exercisedPairs, coverage.documentedPairs, coverage.percent]).toEqual([4, 7, 57.1]);
    expect(coverage.events).toEqual(['api_key.created', 'user.created']);
    expect(neverExercised(coverage).map((o) => o.operationId)).toEqual(['createUser']);
    expect(coverageLine(coverage)).toBe('Coverage: 3 of 4 operations, 4 of 7 documented (operation, status) pairs (57.1 %), 2 event types delivered');
    expect(belowMinimum({ ...coverage, minimum: 58 })).toBe(true);
    expect(belowMinimum({ ...coverage, minimum: 57 })).toBe(false);
    expect(belowMinimum(coverage)).toBe(false);
  });
});
