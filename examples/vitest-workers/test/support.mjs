// What every test file here shares: its worker's tenant, a webhook receiver of its own, and a
// note of which worker ran it in which tenant (the example's own test reads those notes).
import { createServer } from 'node:http';
import { appendFileSync } from 'node:fs';
import { workerTenant } from 'svc/testing';

/** A webhook receiver on a free loopback port that keeps every delivery's body and headers. */
export async function startReceiver() {
  const received = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: JSON.parse(body) });
      response.writeHead(204).end();
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}/hooks`, received, close: () => new Promise((resolve) => server.close(resolve)) };
}

/** This worker's tenant, a receiver subscribed to `events` in it, and a note of the pair. */
export async function setUp(file, events) {
  const worker = await workerTenant();
  const receiver = await startReceiver();
  const { data: webhook } = await worker.client.webhooks.create({ url: receiver.url, events }).then(ok);
  if (process.env.EXAMPLE_NOTES) {
    appendFileSync(process.env.EXAMPLE_NOTES, `${JSON.stringify({ file, worker: process.env.VITEST_POOL_ID, tenant: worker.tenant.id, pid: process.pid })}\n`);
  }
  return { ...worker, receiver, webhook };
}

/** The body of a 2xx answer; anything else fails the test with the answer in the message. */
export function ok(result) {
  if (!result.ok) throw new Error(`${result.request.method} ${result.request.path} answered ${result.status}: ${result.text}`);
  return result.body;
}
