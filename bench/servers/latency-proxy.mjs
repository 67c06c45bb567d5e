// A reverse proxy on loopback that holds every answer DELAY_MS (default 150) before passing it
// on, as a deployment a long way off would: the conformance row runs the suite through it.
// It forwards to UPSTREAM (an http://127.0.0.1 origin only) over keep-alive connections and
// buffers each answer whole, so the delay is added once per request.
import { Agent, createServer, request } from 'node:http';

const upstream = new URL(process.env.UPSTREAM ?? '');
if (upstream.protocol !== 'http:' || upstream.hostname !== '127.0.0.1')
  throw new Error(`UPSTREAM must be http://127.0.0.1:<port>, got ${process.env.UPSTREAM}`);
const delayMs = Number(process.env.DELAY_MS ?? 150);
// Idle upstream connections are dropped before the upstream's own 5 s keep-alive timer can close one under a request.
const agent = new Agent({ keepAlive: true, timeout: 4_000 });
const HOP_BY_HOP = ['connection', 'keep-alive', 'transfer-encoding', 'proxy-connection', 'upgrade'];

// Headers as large as svc's own limit and past it reach svc, which judges them (431 in its
// error envelope, as statuses.431 checks): Node's default 16 KiB would answer an empty 431 here.
const server = createServer({ maxHeaderSize: 64 * 1024 }, (req, res) => {
  const headers = { ...req.headers, host: upstream.host };
  delete headers.connection;
  const forward = request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers, agent }, (answer) => {
    const chunks = [];
    answer.on('data', (chunk) => chunks.push(chunk));
    answer.on('error', () => res.destroy());
    answer.on('end', () => {
      // An early answer (413 before the whole body was read): the upstream stops reading, so the
      // rest of the body is dropped here and that upstream connection is not reused.
      if (!req.complete) {
        req.unpipe(forward);
        req.resume();
        forward.destroy();
      }
      setTimeout(() => {
        if (res.destroyed) return;
        const out = { ...answer.headers };
        for (const name of HOP_BY_HOP) delete out[name];
        const body = Buffer.concat(chunks);
        // A HEAD answer keeps the length of the body it would have had.
        if (req.method !== 'HEAD') out['content-length'] = String(body.length);
        res.writeHead(answer.statusCode ?? 502, out);
        res.end(body);
      }, delayMs);
    });
  });
  forward.on('error', () => {
    // Whatever of the body is left is read and dropped, or the client's next request on this
    // connection would wait behind it for ever.
    req.unpipe(forward);
    req.resume();
    // The upstream may answer (413) and close before it has read the whole body: that answer still stands.
    if (res.headersSent || res.destroyed || forward.res) return;
    res.writeHead(502, { 'content-type': 'application/json; charset=utf-8' });
    res.end('{"error":"the latency proxy could not reach svc","code":"bad_gateway","details":[]}');
  });
  // A client that hangs up takes its upstream request with it.
  res.on('close', () => {
    if (!res.writableFinished) forward.destroy();
  });
  req.pipe(forward);
});
server.keepAliveTimeout = 30_000;
server.listen(Number(process.env.PORT), '127.0.0.1');
