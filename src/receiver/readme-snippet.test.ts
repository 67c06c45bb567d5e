/**
 * The paste-ready verification snippet ("Verifying in your own handler") must agree with the
 * sender: it is cut out of docs/listen.md, compiled, and run on signed deliveries.
 */
import { readFileSync } from 'node:fs';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { signDelivery } from '../webhooks/signature.js';

type VerifyWebhook = (secret: string, rawBody: Buffer | string, headers: Record<string, string | undefined>, nowSeconds?: number) => void;

const README = new URL('../../docs/listen.md', import.meta.url);
const secret = 'whsec_0123456789abcdefghijABCDEFGHIJ01';
const body = '{"id":"evt_1","type":"user.created","created_at":"2026-11-21T10:00:00.000Z","api_version":"2026-11-01","data":{}}';
const now = 1_800_000_000;

function snippet(): string {
  const readme = readFileSync(README, 'utf8');
  const section = readme.slice(readme.indexOf('## Verifying in your own handler'));
  const match = /```ts\n([^]*?)```/.exec(section);
  if (!match) throw new Error('no ```ts block under "Verifying in your own handler" in docs/listen.md');
  return match[1]!;
}

function headers(timestamp = now, key = secret): Record<string, string> {
  const signed = signDelivery(key, 'evt_1', body, timestamp);
  return Object.fromEntries(Object.entries(signed).map(([name, value]) => [name.toLowerCase(), value]));
}

describe('the README verification snippet', () => {
  let verifyWebhook: VerifyWebhook;
  beforeAll(async () => {
    const source = snippet();
    expect(source).not.toMatch(/from '(?!node:)/); // node:crypto only
    const js = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
    ({ verifyWebhook } = (await import(`data:text/javascript;base64,${Buffer.from(js).toString('base64')}`)) as { verifyWebhook: VerifyWebhook });
  });

  it('accepts what the sender signs, as a Buffer or a string, up to 300 s old', () => {
    expect(() => verifyWebhook(secret, Buffer.from(body), headers(), now)).not.toThrow();
    expect(() => verifyWebhook(secret, body, headers(now - 300), now)).not.toThrow();
  });

  it.each<[string, () => Parameters<VerifyWebhook>, RegExp]>([
    ['a tampered body', () => [secret, body.replace('evt_1', 'evt_2'), headers(), now], /signature mismatch/],
    ['a wrong secret', () => [secret, body, headers(now, 'whsec_other'), now], /signature mismatch/],
    ['a stale timestamp', () => [secret, body, headers(now - 301), now], /300 s/],
    ['a future timestamp', () => [secret, body, headers(now + 301), now], /300 s/],
    ['a missing signature', () => [secret, body, { ...headers(), 'x-service-signature': undefined }, now], /missing/],
    ['a truncated signature', () => [secret, body, { ...headers(), 'x-service-signature': headers()['x-service-signature']!.slice(0, 20) }, now], /mismatch/],
  ])('refuses %s', (_name, input, message) => {
    expect(() => verifyWebhook(...input())).toThrow(message);
  });
});
