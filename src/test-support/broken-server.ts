/**
 * A deliberately broken deployment for the conformance suite's own tests: a Hono app on a
 * real loopback port that proxies every request to the emulator's app (in-process) and
 * changes one behaviour — a request, an answer, or a webhook delivery. Deliveries reach the
 * suite through a relay here: webhook URLs are rewritten on the way in (and back on the way
 * out), so a breakage can tamper with headers and bytes the way a broken sender would.
 */
import { Hono } from 'hono';
import { fetch as undiciFetch } from 'undici';
import { createApp } from '../app.js';
import type { Runtime } from '../runtime.js';
import { listen, type RunningServer } from '../server.js';
import { computeSignature } from '../webhooks/signature.js';

export interface ProxiedRequest {
  method: string;
  /** Path with query, e.g. `/v1/users?page_size=2`. */
  path: string;
  headers: Record<string, string>;
  body: string;
}

export interface ProxiedResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface RelayedDelivery {
  headers: Record<string, string>;
  body: string;
  /** The webhook's secret, as its creation answer told it. */
  secret: string;
  /** How many deliveries this webhook URL had before this one. */
  index: number;
}

/** One behaviour changed; each hook may return a replacement, or nothing to leave it as is. */
export interface Breakage {
  request?(request: ProxiedRequest): ProxiedRequest | ProxiedResponse | void;
  response?(request: ProxiedRequest, response: ProxiedResponse): ProxiedResponse | void;
  delivery?(delivery: RelayedDelivery): RelayedDelivery | void;
  /** Never answers matching requests (a hung deployment). */
  hang?(request: ProxiedRequest): boolean;
  /** Answers every request this many milliseconds later (a far deployment). */
  latencyMs?: number;
}

/** Signs `body` with a given timestamp, as a sender would. */
export function resign(delivery: RelayedDelivery, timestamp: string, body = delivery.body): RelayedDelivery {
  const headers = {
    ...delivery.headers,
    'x-service-timestamp': timestamp,
    'x-service-signature': `sha256=${computeSignature(delivery.secret, timestamp, body)}`,
  };
  return { ...delivery, headers, body };
}

/** Edits the JSON body of a delivery and signs it again (the break is in the content, not the signature). */
export function editPayload(delivery: RelayedDelivery, edit: (payload: Record<string, unknown>) => void): RelayedDelivery {
  const payload = JSON.parse(delivery.body) as Record<string, unknown>;
  edit(payload);
  return resign(delivery, delivery.headers['x-service-timestamp'] ?? String(Math.floor(Date.now() / 1000)), JSON.stringify(payload));
}

/** The body to answer with: none for a status that may carry none (a Response with a body and 204 throws). */
const bodyOf = (response: ProxiedResponse): string | null => ([204, 205, 304].includes(response.status) ? null : response.body);

export const isResponse = (value: ProxiedRequest | ProxiedResponse): value is ProxiedResponse => 'status' in value;

interface Relay {
  target: string;
  webhookId: string;
  count: number;
}

export interface BrokenServer {
  baseUrl: string;
  close(): Promise<void>;
}

export async function startBrokenServer(rt: Runtime, breakage: Breakage = {}): Promise<BrokenServer> {
  const inner = createApp(rt);
  const relays = new Map<string, Relay>();
  /** Webhook id → its current secret, from create and rotate answers. */
  const secrets = new Map<string, string>();
  const app = new Hono();
  let origin = '';
  let counter = 0;

  app.post('/__relay/:id', async (c) => {
    const relay = relays.get(c.req.param('id'));
    if (!relay) return c.text('no such relay', 404);
    const headers: Record<string, string> = {};
    c.req.raw.headers.forEach((value, name) => {
      if (name.startsWith('x-service-') || name === 'content-type') headers[name] = value;
    });
    let delivery: RelayedDelivery = { headers, body: await c.req.text(), secret: secrets.get(relay.webhookId) ?? '', index: relay.count };
    relay.count += 1;
    delivery = breakage.delivery?.(delivery) ?? delivery;
    const answer = await undiciFetch(relay.target, { method: 'POST', headers: delivery.headers, body: delivery.body });
    return c.body(null, answer.status as 200);
  });

  app.all('*', async (c) => {
    const url = new URL(c.req.url);
    const headers: Record<string, string> = {};
    c.req.raw.headers.forEach((value, name) => void (headers[name] = value));
    let request: ProxiedRequest = {
      method: c.req.method,
      path: `${url.pathname}${url.search}`,
      headers,
      body: ['GET', 'HEAD'].includes(c.req.method) ? '' : await c.req.text(),
    };
    if (breakage.hang?.(request) === true) return new Promise<Response>(() => undefined);
    const replaced = breakage.request?.(request);
    if (replaced !== undefined && isResponse(replaced)) return new Response(bodyOf(replaced), { status: replaced.status, headers: replaced.headers });
    if (replaced !== undefined) request = replaced;

    // Webhook URLs point at the relay; the answer shows the original again.
    const isWebhookWrite = /^\/v1\/webhooks(\/[^/]+)?$/.test(url.pathname) && ['POST', 'PATCH'].includes(request.method);
    let relayId: string | undefined;
    if (isWebhookWrite && request.body !== '') {
      try {
        const body = JSON.parse(request.body) as { url?: unknown };
        if (typeof body.url === 'string' && /^https?:\/\/\S+$/.test(body.url)) {
          relayId = `r${(counter += 1)}`;
          relays.set(relayId, { target: body.url, webhookId: '', count: 0 });
          request = { ...request, body: JSON.stringify({ ...body, url: `${origin}/__relay/${relayId}` }) };
        }
      } catch {
        // not JSON: the emulator answers it
      }
    }
    const forwarded = await inner.request(`http://localhost${request.path}`, {
      method: request.method,
      headers: request.headers,
      ...(request.body === '' ? {} : { body: request.body }),
    });
    let text = await forwarded.text();
    if (isWebhookWrite) {
      try {
        const data = (JSON.parse(text) as { data?: { id?: string; secret?: string; url?: string } }).data;
        const relay = relays.get(data?.url?.match(/\/__relay\/(\w+)$/)?.[1] ?? '');
        if (relay !== undefined && data?.id !== undefined) relay.webhookId = data.id;
        if (data?.id !== undefined && data.secret !== undefined) secrets.set(data.id, data.secret);
      } catch {
        // an error answer
      }
    }
    text = text.replace(new RegExp(`${origin}/__relay/(r\\d+)\\b`, 'g'), (whole, id: string) => relays.get(id)?.target ?? whole);
    const responseHeaders: Record<string, string> = {};
    forwarded.headers.forEach((value, name) => {
      if (name !== 'content-length') responseHeaders[name] = value;
    });
    let response: ProxiedResponse = { status: forwarded.status, headers: responseHeaders, body: text };
    response = breakage.response?.(request, response) ?? response;
    if (breakage.latencyMs !== undefined) await new Promise((resolve) => setTimeout(resolve, breakage.latencyMs));
    return new Response(bodyOf(response), { status: response.status, headers: response.headers });
  });

  const server: RunningServer = await listen(app, { port: 0, host: '127.0.0.1' });
  origin = server.origin;
  return { baseUrl: `${origin}/v1`, close: () => server.close(1_000) };
}
