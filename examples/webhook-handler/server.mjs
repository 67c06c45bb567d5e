// A webhook handler for svc (and the service it emulates) in plain Node 20+, no dependencies.
// It verifies the raw body, refuses timestamps more than 300 s from now, answers each event id
// once and repeats with 200, answers before doing the work, and acknowledges every event type.
//
//   SVC_WEBHOOK_SECRET=whsec_… node server.mjs          # listens on 127.0.0.1:3000 (PORT to change)
//   npx svc webhook probe --url http://127.0.0.1:3000/webhooks --secret whsec_…
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';

/** Deliveries older (or further in the future) than this are refused (spec: 300 s). */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/** Throws unless `rawBody` was signed with `secret` in the last 300 s (headers as node:http gives them). */
export function verifyWebhook(secret, rawBody, headers, nowSeconds = Math.floor(Date.now() / 1000)) {
  const signature = headers['x-service-signature'];
  const timestamp = headers['x-service-timestamp'];
  if (typeof signature !== 'string' || typeof timestamp !== 'string' || !/^\d+$/.test(timestamp)) {
    throw new Error('missing or malformed X-Service-Signature / X-Service-Timestamp');
  }
  const expected = `sha256=${createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest('hex')}`;
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, Buffer.from(expected))) throw new Error('signature mismatch');
  if (Math.abs(nowSeconds - Number(timestamp)) > WEBHOOK_TOLERANCE_SECONDS) throw new Error(`timestamp more than ${WEBHOOK_TOLERANCE_SECONDS} s from now`);
}

/** Your work per event type; types you do not handle are acknowledged and skipped. */
const handlers = {
  'user.created': (data) => console.log('new user', data.userId, data.email),
  'tx.completed': (data) => console.log('transaction completed', data.transactionId),
};

const secret = process.env.SVC_WEBHOOK_SECRET;
if (!secret) {
  console.error('set SVC_WEBHOOK_SECRET to the webhook secret (whsec_…)');
  process.exit(2);
}
const processed = new Set(); // event ids already handled: use your database in production

const server = createServer((req, res) => {
  if (req.method !== 'POST' || req.url !== '/webhooks') return void res.writeHead(404).end();
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const rawBody = Buffer.concat(chunks);
    try {
      verifyWebhook(secret, rawBody, req.headers);
    } catch (error) {
      return void res.writeHead(400, { 'content-type': 'text/plain' }).end(error.message);
    }
    const eventId = req.headers['x-service-event-id'];
    const first = !processed.has(eventId);
    processed.add(eventId);
    res.writeHead(200).end(); // answer first: the sender gives up after 30 s
    if (first) {
      const event = JSON.parse(rawBody.toString('utf8'));
      if (Object.hasOwn(handlers, event.type)) setImmediate(() => handlers[event.type](event.data));
    }
  });
});
server.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${server.address().port}/webhooks`);
});
