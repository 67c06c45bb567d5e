/**
 * A GET that carries a body, over a real socket with `Connection: close`: the body is read and
 * dropped before the answer is written (middleware/body.ts), so closing the socket never resets
 * an answer still on its way; one over 1 MiB is refused in the envelope (D6).
 */
import { request as httpRequest } from 'node:http';
import { createLogger } from '../src/logger.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACME_KEY, startTestEmulator, type TestEmulator } from '../src/test-support/harness.js';

interface Answer {
  status: number;
  text: string;
}

/** One request on its own connection (`Connection: close`), its body written in one piece or in chunks. */
function send(origin: string, path: string, body: Buffer, chunked = false): Promise<Answer> {
  const url = new URL(origin);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method: 'GET',
        path,
        agent: false,
        headers: {
          'x-api-key': ACME_KEY,
          'content-type': 'application/json',
          ...(chunked ? { 'transfer-encoding': 'chunked' } : { 'content-length': String(body.byteLength) }),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    if (chunked) {
      for (let at = 0; at < body.byteLength; at += 16 * 1024) outgoing.write(body.subarray(at, at + 16 * 1024));
      outgoing.end();
    } else {
      outgoing.end(body);
    }
  });
}

const jsonOf = (bytes: number): Buffer => Buffer.from(JSON.stringify({ name: 'a'.repeat(bytes - 11) }));

describe('a GET with a body', () => {
  let svc: TestEmulator;
  beforeAll(async () => {
    svc = await startTestEmulator({ rateLimit: 'off' });
  });
  afterAll(() => svc.close());

  it('gets its whole answer, however large, when the connection closes after it', async () => {
    for (const chunked of [false, true]) {
      for (let i = 0; i < 3; i++) {
        const answer = await send(svc.origin, '/v1/openapi.json', jsonOf(200_000), chunked);
        expect(answer.status).toBe(200);
        expect(answer.text.length).toBeGreaterThan(100_000);
        expect((JSON.parse(answer.text) as { openapi: string }).openapi).toBe('3.1.0');
      }
    }
  });

  it('is refused with 413 in the envelope when the body is over 1 MiB', async () => {
    for (const chunked of [false, true]) {
      const answer = await send(svc.origin, '/v1/tenant', jsonOf(1024 * 1024 + 10), chunked);
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.text)).toMatchObject({ code: 'payload_too_large', details: [] });
    }
  });

  it('is answered as without one when the body is small', async () => {
    const answer = await send(svc.origin, '/v1/tenant', jsonOf(100));
    expect(answer.status).toBe(200);
    expect((JSON.parse(answer.text) as { data: { id: string } }).data.id).toMatch(/^ten_/);
  });

  it('lets a client that hangs up mid-body go without an error in the log', async () => {
    const lines: string[] = [];
    const logged = await startTestEmulator({ logger: createLogger({ format: 'json', write: (line) => lines.push(line) }) });
    try {
      const url = new URL(logged.origin);
      await new Promise<void>((resolve) => {
        const outgoing = httpRequest({
          host: url.hostname,
          port: url.port,
          method: 'GET',
          path: '/v1/tenant',
          agent: false,
          headers: { 'x-api-key': ACME_KEY, 'transfer-encoding': 'chunked' },
        });
        outgoing.on('error', () => resolve());
        outgoing.write(Buffer.alloc(16 * 1024, 97), () => setTimeout(() => outgoing.destroy(), 50));
        outgoing.on('close', () => resolve());
      });
      // The server sees the hang-up, lets the request go, and still answers others.
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect((await logged.request('GET', '/tenant')).status).toBe(200);
      const levels = lines.map((line) => (JSON.parse(line) as { level: string }).level);
      expect(levels).not.toContain('error');
    } finally {
      await logged.close();
    }
  });
});
