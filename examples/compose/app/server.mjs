// A stand-in for your app: GET / lists the emulator's users through its API, POST /webhooks takes the
// deliveries `svc webhook listen` forwards after checking their signatures.
import { createServer } from 'node:http';

const api = process.env.SVC_URL ?? 'http://svc:4010/v1';
const key = process.env.SVC_API_KEY ?? '';

createServer(async (req, res) => {
  if (req.method === 'POST' && req.url === '/webhooks') {
    let body = '';
    for await (const chunk of req) body += chunk;
    const event = JSON.parse(body);
    console.log(`event ${event.type} ${event.id}`);
    res.writeHead(200).end();
    return;
  }
  const answer = await fetch(`${api}/users`, { headers: { 'x-api-key': key } });
  const { data } = await answer.json();
  res.writeHead(200, { 'content-type': 'text/plain' }).end(`${data.length} users at ${api}\n`);
}).listen(Number(process.env.PORT ?? 3000), '0.0.0.0', () => console.log(`app on :${process.env.PORT ?? 3000}`));
