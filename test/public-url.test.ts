/**
 * The URL svc gives others to call it at is the one it was told (`--public-url`), by default where
 * it listens, and never the Host a request was sent with: the OpenAPI documents' `servers` and a
 * checkout page's link are the same whichever accepted Host asked. Real emulators on loopback ports.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publicUrl, PublicUrlError } from '../src/base-url.js';
import { startTestEmulator, type TestEmulator } from '../src/test-support/harness.js';

interface Answer {
  status: number;
  body: { servers?: Array<{ url: string }>; info?: { contact?: { url?: string } }; data?: { url: string } };
}

/** A request to the emulator's port with `host` as the Host header (fetch will not send a Host of one's choosing). */
function ask(svc: TestEmulator, method: string, path: string, host: string, body?: unknown): Promise<Answer> {
  const { port } = svc.emulator.server;
  const text = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { host, 'x-api-key': 'sk_test_acmeLocalDevKey00000000000000001' };
    if (text !== undefined) headers['content-type'] = 'application/json';
    const sent = request({ host: '127.0.0.1', port, method, path, headers }, (answer) => {
      let data = '';
      answer.setEncoding('utf8').on('data', (chunk: string) => (data += chunk));
      answer.on('end', () => resolve({ status: answer.statusCode ?? 0, body: JSON.parse(data) as Answer['body'] }));
    });
    sent.on('error', reject);
    sent.end(text);
  });
}

const CHECKOUT = { plan: 'enterprise', successUrl: 'https://acme.test/paid', cancelUrl: 'https://acme.test/cancel' };

describe('by default, where svc listens', () => {
  let svc: TestEmulator;
  beforeAll(async () => {
    svc = await startTestEmulator();
  });
  afterAll(() => svc.close());

  it.each(['/v1/openapi.json', '/_emulator/openapi.json'])('%s names http://127.0.0.1:PORT whichever accepted Host asked', async (path) => {
    const own = `http://127.0.0.1:${svc.emulator.server.port}`;
    expect(svc.emulator.publicUrl).toBe(own);
    for (const host of [`127.0.0.1:${svc.emulator.server.port}`, `localhost:${svc.emulator.server.port}`, 'app.localhost:9999', '[::1]:4010']) {
      const answer = await ask(svc, 'GET', path, host);
      expect(answer.status, host).toBe(200);
      expect(answer.body.servers, host).toEqual([expect.objectContaining({ url: own })]);
      expect(answer.body.info?.contact?.url, host).toBe(`${own}/_emulator/ui`);
    }
  });

  it('links a checkout page there too, not at the Host the call came with', async () => {
    const answer = await ask(svc, 'POST', '/v1/billing/checkout', 'localhost:9999', CHECKOUT);
    expect(answer.status).toBe(201);
    expect(answer.body.data?.url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${svc.emulator.server.port}/_provider/checkout/`));
  });
});

describe('--public-url', () => {
  const told = 'https://svc.example.test/team-a';
  let svc: TestEmulator;
  beforeAll(async () => {
    svc = await startTestEmulator({ publicUrl: told });
  });
  afterAll(() => svc.close());

  it('is what the documents, the dashboard link and a checkout link name', async () => {
    for (const path of ['/v1/openapi.json', '/_emulator/openapi.json']) {
      const answer = await ask(svc, 'GET', path, `localhost:${svc.emulator.server.port}`);
      expect(answer.body.servers, path).toEqual([expect.objectContaining({ url: told })]);
      expect(answer.body.info?.contact?.url, path).toBe(`${told}/_emulator/ui`);
    }
    expect(svc.emulator.dashboardUrl).toBe(`${told}/_emulator/ui`);
    const checkout = await ask(svc, 'POST', '/v1/billing/checkout', `127.0.0.1:${svc.emulator.server.port}`, CHECKOUT);
    expect(checkout.body.data?.url).toMatch(/^https:\/\/svc\.example\.test\/team-a\/_provider\/checkout\/cs_/);
    // Where it listens stays where the tests call it.
    expect(svc.baseUrl).toBe(`http://127.0.0.1:${svc.emulator.server.port}/v1`);
  });
});

describe('publicUrl()', () => {
  it.each([
    ['https://svc.example.test', 'https://svc.example.test'],
    ['https://svc.example.test/', 'https://svc.example.test'],
    ['  HTTP://SVC.example.test:8080/Team/ ', 'http://svc.example.test:8080/Team'],
    ['http://127.0.0.1:80', 'http://127.0.0.1'],
  ])('%j → %s', (input, url) => {
    expect(publicUrl(input)).toBe(url);
  });

  it.each([
    ['svc.example.test', 'does not start with http:// or https://'],
    ['ftp://svc.example.test', 'is not an http(s) URL (ftp)'],
    ['http://', 'is not a URL'],
    ['https://me:pw@svc.example.test', 'carries credentials'],
    ['https://svc.example.test/?x=1', 'has a query or fragment'],
    ['https://svc.example.test/v1', 'ends in /v1'],
    ['https://svc.example.test/team/v1/', 'ends in /v1'],
  ])('refuses %j: %s', (input, why) => {
    expect(() => publicUrl(input)).toThrow(PublicUrlError);
    expect(() => publicUrl(input)).toThrow(why);
  });
});
