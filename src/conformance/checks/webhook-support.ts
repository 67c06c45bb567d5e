/**
 * Webhooks wired to the suite's receiver, and the deliveries they get, shared by the checks
 * of a run: one webhook for test events (subscribed to a type nothing in the run emits, so
 * only test events reach it) and one for `user.created`.
 */
import type { ApiResult } from '../../client/index.js';
import { verifySignature, WebhookVerificationError, EVENT_ID_HEADER, SIGNATURE_HEADER, TIMESTAMP_HEADER } from '../../webhooks/signature.js';
import { list } from '../../schemas/common.js';
import { Delivery } from '../../schemas/webhooks.js';
import { CheckFailure, CheckSkip, expect, expectShape, expectStatus, fail } from '../expect.js';
import { ReceiverTimeout, type ReceivedDelivery, type Responder } from '../receiver.js';
import { stringField } from '../shapes.js';
import type { CheckContext } from '../types.js';
import { created, createUser, removal, type CreatedUser } from './support.js';

export interface WiredWebhook {
  id: string;
  url: string;
  /** What the creation sent besides the url: the events, and on the emulator a description naming the run. */
  events: string[];
  description: string | undefined;
  /** The signing secret when the creation answer carries one (D8); the spec does not show how it is issued. */
  secret: string | undefined;
  result: ApiResult<unknown>;
}

/**
 * An event type nothing in the run emits, so a webhook subscribed to it gets only its test
 * events: `tx.completed` in the spec profile (named by the spec; the run executes no
 * transactions there), `billing.subscription.updated` on the emulator (no checkout is completed).
 */
export function quietEventType(ctx: CheckContext): string {
  return ctx.profile === 'emulator' ? 'billing.subscription.updated' : 'tx.completed';
}

/** Real time a delivery may take to arrive after the call that causes it. */
export function arrivalTimeout(ctx: CheckContext): number {
  return Math.max(ctx.timeoutMs, 10_000);
}

export async function wireWebhook(ctx: CheckContext, label: string, events: string[], respond?: Responder): Promise<WiredWebhook> {
  const url = ctx.receiver.endpoint(label, respond);
  // The spec's registration input is url and events; the emulator (D15) also keeps a description naming the run.
  const description = ctx.profile === 'emulator' ? ctx.name(label) : undefined;
  const body = description === undefined ? { url, events } : { url, events, description };
  const result = await ctx.client.request('POST', '/webhooks', { body });
  const data = created(result, 'part 4: create webhook (POST /webhooks {url, events}) must succeed');
  const id = stringField(data, 'id', 'a created webhook has an id', result);
  ctx.defer({ description: `webhook ${id} → ${url}`, stage: 'webhooks', run: () => removeWebhook(ctx, id) });
  const secret = typeof data['secret'] === 'string' ? data['secret'] : undefined;
  return { id, url, events, description, secret, result };
}

/**
 * The webhook as GET /webhooks lists it (part 2: the listing is `{ data: [...] }`), or
 * undefined when it is not listed: the read that confirms what a create, an update or a
 * delete did (the API has no GET of one webhook).
 */
export async function listedWebhook(ctx: CheckContext, id: string): Promise<{ result: ApiResult<unknown>; item: Record<string, unknown> | undefined }> {
  const result = await ctx.client.request('GET', '/webhooks');
  expectStatus(result, 200, 'part 4: GET /webhooks lists the webhooks');
  const data = (result.body as { data?: unknown } | undefined)?.data;
  expect(Array.isArray(data), 'part 2: GET /webhooks answers { data: [...] }', `body ${result.text.slice(0, 200)}`, result);
  const item = (data as unknown[]).find(
    (entry): entry is Record<string, unknown> => typeof entry === 'object' && entry !== null && (entry as { id?: unknown }).id === id,
  );
  return { result, item };
}

/** Whether `listed` holds the same event types as `sent`, in any order. */
export function sameEvents(listed: unknown, sent: readonly string[]): boolean {
  return Array.isArray(listed) && JSON.stringify((listed as unknown[]).map(String).sort()) === JSON.stringify([...sent].sort());
}

/**
 * Holds the listed webhook to what the run sent it: each field given, as sent (events in any
 * order). `rule` names what sent them (a create, a PATCH).
 */
export function expectListedAs(
  listed: { result: ApiResult<unknown>; item: Record<string, unknown> | undefined },
  sent: { url?: string; events?: readonly string[]; description?: string | undefined; enabled?: boolean },
  rule: string,
): void {
  const { item, result } = listed;
  expect(item !== undefined, rule, 'the webhook is not in GET /webhooks', result);
  if (sent.url !== undefined) expect(item['url'] === sent.url, rule, `listed url ${JSON.stringify(item['url'])}, sent ${sent.url}`, result);
  if (sent.events !== undefined) {
    expect(sameEvents(item['events'], sent.events), rule, `listed events ${JSON.stringify(item['events'])}, sent ${JSON.stringify(sent.events)}`, result);
  }
  if (sent.description !== undefined) {
    expect(item['description'] === sent.description, rule, `listed description ${JSON.stringify(item['description'])}, sent ${sent.description}`, result);
  }
  if (sent.enabled !== undefined)
    expect(item['enabled'] === sent.enabled, rule, `listed enabled ${JSON.stringify(item['enabled'])}, sent ${sent.enabled}`, result);
}

/**
 * How many deliveries of `eventType` the webhook has, from GET /webhooks/:id/deliveries. On
 * the emulator deliveries are planned in the event's own write (D8): once the call that
 * causes an event has answered, its deliveries are listed, so a count before and after tells
 * at once whether the webhook was sent it.
 */
export async function deliveriesOf(ctx: CheckContext, hookId: string, eventType: string): Promise<{ result: ApiResult<unknown>; count: number }> {
  const result = await ctx.client.webhooks.deliveries(hookId);
  const { data } = expectShape(result, list(Delivery), 'D9: GET /webhooks/:id/deliveries');
  return { result, count: data.filter((delivery) => delivery.eventType === eventType).length };
}

/** Real time a webhook's removal waits for its deliveries in flight to end. */
const DRAIN_MS = 5_000;

/**
 * Deletes a webhook of the run once none of its deliveries is still waiting for an attempt: a
 * webhook deleted under a pending delivery sends it to the DLQ for good (D9), and the run must
 * leave the DLQ as it found it. The receiver is still up, so what is in flight arrives.
 */
async function removeWebhook(ctx: CheckContext, id: string): Promise<void> {
  const until = Date.now() + DRAIN_MS;
  for (;;) {
    const listed = await ctx.client.webhooks.deliveries(id);
    const waiting = listed.ok && Array.isArray(listed.body.data) && listed.body.data.some((delivery) => delivery.status === 'pending');
    if (!waiting || Date.now() > until) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await removal(ctx.client.webhooks.delete(id));
}

/** Waits for a delivery, turning a timeout into the failure of the rule that said it would come. */
export async function arrival<T>(wait: Promise<T>, rule: string, cause?: ApiResult<unknown>): Promise<T> {
  try {
    return await wait;
  } catch (error) {
    if (error instanceof ReceiverTimeout) fail(rule, `no delivery reached the suite's receiver (${error.message})`, cause);
    throw error;
  }
}

export interface TestDelivery {
  hook: WiredWebhook;
  answer: ApiResult<unknown>;
  delivery: ReceivedDelivery;
  payload: Record<string, unknown>;
}

/** The run's test event: POST /webhooks/:id/test and the request it causes at the receiver. */
export function testDelivery(ctx: CheckContext): Promise<TestDelivery> {
  return ctx.shared('webhook-test-delivery', async () => {
    const hook = await wireWebhook(ctx, 'test-events', [quietEventType(ctx)]);
    const answer = await ctx.client.request('POST', `/webhooks/${hook.id}/test`, { body: {} });
    expectStatus(answer, [200, 201, 202, 204], 'part 6: POST /webhooks/:id/test sends a test event');
    const [delivery] = await arrival(
      ctx.receiver.waitFor(hook.url, 1, arrivalTimeout(ctx)),
      'part 6: a test event is sent to the webhook URL by HTTP POST',
      answer,
    );
    return { hook, answer, delivery: delivery!, payload: payloadOf(delivery!) };
  });
}

export interface UserCreatedDelivery extends TestDelivery {
  user: CreatedUser;
}

/** A real `user.created`: a webhook subscribed to it, then POST /users, then the delivery for that user. */
export function userCreatedDelivery(ctx: CheckContext): Promise<UserCreatedDelivery> {
  return ctx.shared('webhook-user-created', async () => {
    const hook = await wireWebhook(ctx, 'user-created', ['user.created']);
    const user = await createUser(ctx, 'webhook');
    const delivery = await arrival(
      ctx.receiver.waitForMatch(hook.url, (d) => bodyText(d).includes(user.id), arrivalTimeout(ctx)),
      'part 6: a user.created event is sent to the webhooks subscribed to it',
      user.result,
    );
    return { hook, answer: user.result, delivery, payload: payloadOf(delivery), user };
  });
}

export function bodyText(delivery: ReceivedDelivery): string {
  return delivery.body.toString('utf8');
}

export function header(delivery: ReceivedDelivery, name: string): string | undefined {
  const value = delivery.headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(', ') : value;
}

function payloadOf(delivery: ReceivedDelivery): Record<string, unknown> {
  try {
    const parsed = JSON.parse(bodyText(delivery)) as unknown;
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // reported below
  }
  throw new CheckFailure('part 6: the delivery body is a JSON object (part 2 event payload)', `body: ${bodyText(delivery).slice(0, 200)}`);
}

/** A delivery as text for failure reasons. */
export function describeDelivery(delivery: ReceivedDelivery): string {
  const headers = [SIGNATURE_HEADER, TIMESTAMP_HEADER, EVENT_ID_HEADER, 'content-type'].map((name) => `${name}: ${header(delivery, name) ?? '(missing)'}`);
  return `delivery ${delivery.method} ${delivery.path} [${headers.join('; ')}] ${bodyText(delivery).slice(0, 300)}`;
}

/**
 * Checks the signature over the exact bytes received, with the webhook's secret (or skips
 * when none is known). Freshness is its own check, so here the timestamp's age is not judged.
 */
export function expectValidSignature(delivery: ReceivedDelivery, secret: string | undefined, rule: string): void {
  if (secret === undefined) {
    throw new CheckSkip('the creation answer carries no `secret`; the spec does not show how the secret is issued, so the signature cannot be checked');
  }
  try {
    const timestamp = header(delivery, TIMESTAMP_HEADER);
    const nowSeconds = timestamp !== undefined && /^\d{1,12}$/.test(timestamp) ? Number(timestamp) : undefined;
    verifySignature({
      secret,
      body: delivery.body,
      signature: header(delivery, SIGNATURE_HEADER),
      timestamp,
      ...(nowSeconds === undefined ? {} : { nowSeconds }),
    });
  } catch (error) {
    if (error instanceof WebhookVerificationError) fail(rule, `${error.reason}: ${error.message}; ${describeDelivery(delivery)}`);
    throw error;
  }
}

export function expectHeader(delivery: ReceivedDelivery, name: string, rule: string): string {
  const value = header(delivery, name);
  expect(value !== undefined && value !== '', rule, `the ${name} header is missing; ${describeDelivery(delivery)}`);
  return value;
}
