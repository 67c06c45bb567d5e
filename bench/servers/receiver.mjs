// A fast webhook receiver for the fan-out benchmark: answers 204 at once and keeps, per
// event and webhook path, when the first attempt arrived relative to the event's created_at.
import { createServer } from 'node:http';

const firstSeen = new Map();
let received = 0;
let firstAt = 0;
let lastAt = 0;

const server = createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/stats') {
    const latencies = [...firstSeen.values()].sort((a, b) => a - b);
    const at = (q) => (latencies.length === 0 ? 0 : latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]);
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ received, deliveries: firstSeen.size, firstAt, lastAt, p50: at(0.5), p99: at(0.99) }));
    return;
  }
  if (req.method === 'GET') {
    res.end('ok');
    return;
  }
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const now = Date.now();
    received += 1;
    firstAt ||= now;
    lastAt = now;
    const event = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    const key = `${event.id} ${req.url}`;
    if (!firstSeen.has(key)) firstSeen.set(key, now - Date.parse(event.created_at));
    res.statusCode = 204;
    res.end();
  });
});
server.listen(Number(process.env.PORT), '127.0.0.1');
