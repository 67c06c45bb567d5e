/**
 * BatchedResponse: answers ended in one turn of the event loop are written together at its end,
 * each whole and in order, whichever form of end() was called; a lone answer is not held back.
 */
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { BatchedResponse } from './batched-response.js';

let server: Server | undefined;

afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<number> {
  server = createServer({ ServerResponse: BatchedResponse }, handler);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

function get(port: number, path: string): Promise<{ status: number; body: string; headers: IncomingMessage['headers'] }> {
  return new Promise((resolve, reject) => {
    request({ port, path, host: '127.0.0.1' }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body, headers: res.headers }));
    })
      .on('error', reject)
      .end();
  });
}

describe('BatchedResponse', () => {
  it('writes an answer only once the turn it was ended in has run', async () => {
    const seen: string[] = [];
    const port = await serve((req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('hello', () => seen.push('finished'));
      seen.push(`ended, writableEnded ${res.writableEnded}`);
      setImmediate(() => seen.push(`next turn, writableEnded ${res.writableEnded}`));
    });
    const answer = await get(port, '/');
    expect(answer).toMatchObject({ status: 200, body: 'hello' });
    expect(seen[0]).toBe('ended, writableEnded false');
    expect(seen).toContain('next turn, writableEnded true');
    expect(seen).toContain('finished');
  });

  it('answers each of many requests whole, with every form of end()', async () => {
    const port = await serve((req, res) => {
      const n = Number(req.url!.slice(1));
      res.setHeader('x-n', String(n));
      if (n % 3 === 0) res.end(`body ${n}`);
      else if (n % 3 === 1) res.end(Buffer.from(`body ${n}`), () => {});
      else {
        res.write('body ');
        res.end(String(n), 'utf8');
      }
    });
    const answers = await Promise.all(Array.from({ length: 30 }, (_, n) => get(port, `/${n}`)));
    expect(answers.map((a) => [a.headers['x-n'], a.body])).toEqual(Array.from({ length: 30 }, (_, n) => [String(n), `body ${n}`]));
  });

  it('ends an answer destroyed in the turn it was ended in before destroying it', async () => {
    const seen: string[] = [];
    const port = await serve((req, res) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end('Error: broken', () => seen.push('finished'));
      res.destroy();
      seen.push(`destroyed, writableEnded ${res.writableEnded}`);
    });
    await get(port, '/').catch(() => undefined);
    expect(seen[0]).toBe('destroyed, writableEnded true');
  });

  it('ends an answer with no body and a status alone', async () => {
    const port = await serve((req, res) => {
      res.statusCode = 204;
      res.end();
    });
    expect(await get(port, '/')).toMatchObject({ status: 204, body: '' });
  });
});
