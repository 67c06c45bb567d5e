/**
 * The fence around the fast path (docs/http-layer.md): a GET of one record runs through every
 * middleware of the real app and its route without a promise, so @hono/node-server gets its
 * Response at once. Each middleware file says it stays synchronous when it can ("Not async: …");
 * this is the check that they do. A middleware made `async`, or a step that awaits on every
 * request, turns the answer into a promise and fails here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.js';
import { createRuntime } from '../src/emulator.js';
import type { Runtime } from '../src/runtime.js';
import { DEFAULT_FIXTURE_PATH, loadFixtureFile, seedFixture } from '../src/services/seed.js';
import { ACME_KEY } from '../src/test-support/harness.js';

const ACME = 'ten_acme0000000000000001';

let rt: Runtime;
let app: ReturnType<typeof createApp>;

beforeAll(async () => {
  rt = await createRuntime({ inMemory: true });
  await seedFixture(rt, await loadFixtureFile(DEFAULT_FIXTURE_PATH));
  app = createApp(rt);
});

afterAll(async () => {
  await rt.close();
});

function getUser(id: string): Response | Promise<Response> {
  return app.fetch(new Request(`http://127.0.0.1:4010/v1/users/${id}`, { headers: { 'x-api-key': ACME_KEY } }));
}

describe('GET /v1/users/:id through the real app', () => {
  it('answers a Response, not a promise, once the app is warm', async () => {
    const user = [...rt.store.all('users')].find((candidate) => candidate.tenantId === ACME);
    expect(user).toBeDefined();
    // The first request may build what later ones reuse (the rate-limit bucket, the key's tenant).
    expect((await getUser(user!.id)).status).toBe(200);

    const answer = getUser(user!.id);
    expect(answer, 'a middleware or the route answered through a promise').toBeInstanceOf(Response);
    const response = answer as Response;
    expect(response.status).toBe(200);
    expect(((await response.json()) as { data: { id: string } }).data.id).toBe(user!.id);
  });

  it('stays synchronous for a user that does not exist (the 404 goes through the error handler)', async () => {
    await getUser('usr_doesnotexist0000000000');
    const answer = getUser('usr_doesnotexist0000000000');
    expect(answer).toBeInstanceOf(Response);
    expect((answer as Response).status).toBe(404);
  });
});
