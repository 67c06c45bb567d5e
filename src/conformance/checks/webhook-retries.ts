/**
 * Retries and the DLQ (spec part 3.1–3.2, 6 "Delivery and retry"; D9). On a real
 * deployment the first retry comes after a minute of real time (a `slow` check); on the
 * emulator the control plane's clock advance walks the whole schedule into the DLQ.
 */
import { list } from '../../schemas/common.js';
import { Delivery, type DeliveryView } from '../../schemas/webhooks.js';
import type { ApiResult } from '../../client/index.js';
import { EVENT_ID_HEADER } from '../../webhooks/signature.js';
import { expect, expectShape, expectStatus, fail } from '../expect.js';
import type { ReceivedDelivery } from '../receiver.js';
import type { Check, CheckContext, Uses } from '../types.js';
import { arrival, arrivalTimeout, bodyText, expectValidSignature, header, quietEventType, wireWebhook, type WiredWebhook } from './webhook-support.js';

/** Spec part 6: the delays after each failure. */
export const SPEC_RETRY_DELAYS = ['1m', '5m', '30m', '2h', '24h'] as const;
const DELAY_MS = [60_000, 300_000, 1_800_000, 7_200_000, 86_400_000];
/** Real seconds the first retry may come early (scheduler granularity, clocks). */
const EARLY_SLACK_MS = 5_000;

function sameEvent(deliveries: ReceivedDelivery[], rule: string): void {
  const ids = deliveries.map((d) => header(d, EVENT_ID_HEADER));
  const bodyIds = deliveries.map((d) => (JSON.parse(bodyText(d)) as { id?: unknown }).id);
  expect(new Set(ids).size === 1 && ids[0] !== undefined, rule, `event id headers ${ids.join(', ')}`);
  expect(
    bodyIds.every((id) => id === ids[0]),
    rule,
    `body ids ${bodyIds.join(', ')}`,
  );
}

/**
 * The emulator checks walk one failing delivery through the whole schedule, about three days
 * of clock, and judge the gaps between its attempts to the second: no other move of the clock
 * may come between, and every session of the run would end on the way.
 */
const WALKS_RETRY_SCHEDULE: Uses = { clock: 'moves', why: 'moves the clock through the retry schedule (three days) and times each attempt' };

interface DeadDelivery {
  hook: WiredWebhook;
  deliveryId: string;
  /** The delivery as the test answered it, after its first attempt. */
  answered: DeliveryView;
  arrivals: ReceivedDelivery[];
  /** For each retry in turn: what the delivery reported before it came, and when on the emulator clock it came. */
  retries: RetrySeen[];
  /** Emulated seconds per real second (--clock-speed): timings are judged with that much slack. */
  speed: number;
  /** GET /webhooks/:id/deliveries once the walk is over: the dead delivery with all its attempts. */
  listing: ApiResult<unknown>;
  /** Once the walk is over: ?status=dead and the DLQ, read while the clock moved two days on, and what arrived by then. */
  dead: {
    listing: Awaited<ReturnType<CheckContext['client']['webhooks']['deliveries']>>;
    dlq: Awaited<ReturnType<CheckContext['client']['emulator']['dlq']>>;
    moved: ApiResult<unknown>;
    arrivals: number;
  };
}

/** One retry of the walk: the delivery as GET ?status=failed listed it before, and the move of the clock that brought it. */
interface RetrySeen {
  /** The listing's answer, and the delivery in it (undefined when ?status=failed did not list it). */
  listing: ApiResult<unknown>;
  listed: DeliveryView | undefined;
  /** The emulator clock before and after the move of the clock during which the retry arrived (ms). */
  cameFrom: number;
  cameBy: number;
}

/** How long the DLQ is watched for a delivery sent again on its own (webhooks.dlq). */
const DEAD_WATCH = '48h';

/**
 * A failing receiver walked through the whole schedule on the emulator clock: six requests,
 * then the DLQ. Before each retry the delivery is read under ?status=failed while the clock
 * moves to a second before the earliest the retry may be due (the schedule's delay after the
 * start of the move that brought the last attempt), then to the nextAttemptAt the listing
 * reports: the move during which each retry arrives is kept, for webhooks.next-attempt-at to
 * hold the reported time to.
 */
function deadDelivery(ctx: CheckContext): Promise<DeadDelivery> {
  return ctx.shared('webhook-dead-delivery', async () => {
    const hook = await wireWebhook(ctx, 'failing', [quietEventType(ctx)], () => 500);
    const answer = await ctx.client.webhooks.test(hook.id);
    expectStatus(answer, 200, 'D15: the test event is sent');
    expect(
      answer.ok && answer.body.data.status === 'failed',
      'D9: a non-2xx answer is a failed attempt',
      `status ${answer.ok ? answer.body.data.status : '?'}`,
      answer,
    );
    const deliveryId = answer.body.data.id;
    /** Before each retry in turn, the delivery as ?status=failed lists it. */
    const listings: Array<Pick<RetrySeen, 'listing' | 'listed'>> = [];
    /** For each retry in turn (by arrival), the move of the clock during which it arrived. */
    const cameDuring: Array<{ from: number; by: number }> = [];
    const waiting = async (): Promise<DeliveryView | undefined> => {
      const listing = await ctx.client.webhooks.deliveries(hook.id, { status: 'failed' });
      const listed = listing.ok ? listing.body.data.find((d) => d.id === deliveryId) : undefined;
      listings.push({ listing, listed });
      return listed;
    };
    // The delivery is read as it waits for its first retry while the first attempt is awaited: the test already answered it failed.
    const [, clock] = await Promise.all([
      arrival(ctx.receiver.waitFor(hook.url, 1, arrivalTimeout(ctx)), 'part 6: the first attempt is sent at once', answer),
      ctx.client.emulator.clock(),
      waiting(),
    ]);
    const speed = clock.ok ? clock.body.data.speed : 1;
    let now = clock.ok ? Date.parse(clock.body.data.now) : Number.NaN;
    /** Moves the clock; a retry that arrived meanwhile came during this move. */
    const move = async (result: Promise<ApiResult<{ data: { now: string } }>>, rule: string): Promise<void> => {
      const moved = await result;
      expectStatus(moved, 200, rule);
      const from = now;
      now = moved.ok ? Date.parse(moved.body.data.now) : Number.NaN;
      const came = ctx.receiver.received(hook.url).length - 1;
      while (cameDuring.length < came) cameDuring.push({ from, by: now });
    };
    const advance = (by: string) => move(ctx.client.emulator.advance(by), `D10: POST /_emulator/clock/advance {"by":"${by}"}`);
    // The probe looks 59 s after the first attempt. The clock ran on (in real time) while the
    // attempt was awaited, and a step of 59 s from there would reach the retry due a minute after
    // the attempt on a slow machine; so the clock is set to 58 s after the attempt, then advanced
    // 1 s (an advance sends every attempt due on the way before it answers).
    const firstAt = Date.parse(answer.body.data.attempts[0]?.at ?? '');
    const setAt = firstAt + 58_000;
    if (speed === 1 && setAt > now) {
      await move(ctx.client.emulator.setClock({ now: new Date(setAt).toISOString() }), 'D10: POST /_emulator/clock {"now": …} sets the clock');
      await advance('1s');
      expect(
        ctx.receiver.received(hook.url).length === 1,
        'part 6: the first retry waits 1 minute',
        'a retry came before 1 minute had passed on the emulator clock',
      );
    } else {
      // On a sped-up clock real milliseconds between calls are emulated seconds: the early-retry probe is only fair at speed 1.
      ctx.note(
        speed !== 1
          ? `clock speed ${speed}: the early-retry probe is left out`
          : '58 s or more passed on the emulator clock since the first attempt: the early-retry probe is left out',
      );
      await advance('59s');
    }
    for (const [index, delay] of SPEC_RETRY_DELAYS.entries()) {
      if (index === 0) {
        await advance('1s');
      } else if (speed !== 1) {
        await waiting();
        await advance(delay);
      } else {
        // The last attempt came no earlier than the start of the move that brought it, so this
        // retry is due no earlier than the delay after that: the clock goes to a second before
        // it while the listing is read (both hold for a delivery that waits), then to the time
        // the listing reports.
        const earliest = cameDuring[index - 1]!.from + DELAY_MS[index]! - 1_000;
        const [listed] = await Promise.all([waiting(), earliest - now >= 1 ? advance(`${Math.floor(earliest - now)}ms`) : undefined]);
        const due = Date.parse(listed?.nextAttemptAt ?? '');
        await advance(Number.isFinite(due) ? `${Math.max(1_000, Math.ceil(due - now))}ms` : delay);
      }
      // A retry later than the time reported: the rest of the delay brings it.
      if (ctx.receiver.received(hook.url).length < index + 2) await advance(delay);
      await arrival(ctx.receiver.waitFor(hook.url, index + 2, arrivalTimeout(ctx)), `part 6: retry ${index + 1} comes ${delay} after failure ${index + 1}`);
      // Arrived only after the move answered (a clock running fast on its own): it came by the clock's now.
      if (cameDuring.length < index + 1) await move(ctx.client.emulator.clock(), 'D10: GET /_emulator/clock');
    }
    const arrivals = ctx.receiver.received(hook.url);
    // Read once at the end of the walk, for the checks that judge what the listing kept of it,
    // beside ?status=dead and the DLQ while the clock moves on two days: a dead delivery reads
    // the same before and after, and nothing may come of the move (webhooks.dlq).
    const [listing, deadListing, dlq, moved] = await Promise.all([
      ctx.client.webhooks.deliveries(hook.id),
      ctx.client.webhooks.deliveries(hook.id, { status: 'dead' }),
      ctx.client.emulator.dlq(),
      ctx.client.emulator.advance(DEAD_WATCH),
    ]);
    const retries = listings.map((seen, index) => ({ ...seen, cameFrom: cameDuring[index]?.from ?? Number.NaN, cameBy: cameDuring[index]?.by ?? Number.NaN }));
    return {
      hook,
      deliveryId,
      answered: answer.body.data,
      arrivals,
      retries,
      speed,
      listing,
      dead: { listing: deadListing, dlq, moved, arrivals: ctx.receiver.received(hook.url).length },
    };
  });
}

export const webhookRetryChecks: Check[] = [
  {
    id: 'webhooks.retry-after-one-minute',
    tags: ['webhooks', 'retries', 'slow'],
    description: 'a delivery answered 500 is retried about 1 minute later, same event id, freshly signed; deliveries list answers',
    spec: 'part 3.1, part 6 (delivery and retry, attempt 1: 1 minute)',
    profile: 'spec',
    creates: true,
    uses: { clock: 'holds', why: 'times a retry due a minute after a failure: a move of the clock would bring it early' },
    slow: true,
    run: async (ctx) => {
      const hook = await wireWebhook(ctx, 'retry', [quietEventType(ctx)], (index) => (index === 0 ? 500 : 200));
      const answer = await ctx.client.request('POST', `/webhooks/${hook.id}/test`, { body: {} });
      expectStatus(answer, [200, 201, 202, 204], 'part 6: POST /webhooks/:id/test sends a test event');
      const deliveries = await arrival(
        ctx.receiver.waitFor(hook.url, 2, DELAY_MS[0]! + 60_000 + ctx.timeoutMs),
        'part 6: a failed delivery is retried after 1 minute',
        answer,
      );
      const waited = deliveries[1]!.receivedAt - deliveries[0]!.receivedAt;
      ctx.note(`retry came ${Math.round(waited / 1000)} s after the failure`);
      expect(waited >= DELAY_MS[0]! - EARLY_SLACK_MS, 'part 6: attempt 1 comes after a delay of 1 minute', `it came after ${Math.round(waited / 1000)} s`);
      sameEvent(deliveries, 'part 6: a retry carries the same event id (X-Service-Event-Id and body id)');
      expectValidSignature(deliveries[1]!, hook.secret, 'part 6: a retry is signed like any delivery');
      const list = await ctx.client.request('GET', `/webhooks/${hook.id}/deliveries`);
      expectStatus(list, 200, 'part 6: GET /webhooks/:id/deliveries lists the deliveries');
    },
  },
  {
    id: 'webhooks.retry-schedule',
    tags: ['webhooks', 'retries', 'dlq'],
    description: 'on the emulator clock a failing delivery is retried after 1m, 5m, 30m, 2h and 24h: six requests, one event id',
    spec: 'part 6 (delivery and retry), D9, D10',
    profile: 'emulator',
    creates: true,
    long: true,
    uses: WALKS_RETRY_SCHEDULE,
    run: async (ctx) => {
      const { arrivals, hook } = await deadDelivery(ctx);
      expect(arrivals.length === 6, 'D9: the first attempt and five retries: six requests', `${arrivals.length} requests arrived`);
      sameEvent(arrivals, 'part 6.4: every retry carries the same event id (X-Service-Event-Id and body id)');
      for (const delivery of arrivals) expectValidSignature(delivery, hook.secret, 'part 6: every attempt is signed over its own timestamp');
    },
  },
  {
    id: 'webhooks.attempts-listed',
    tags: ['webhooks', 'retries'],
    description: 'GET /webhooks/:id/deliveries shows all six attempts, spaced by the schedule, each with its status code',
    spec: 'part 6, D9',
    profile: 'emulator',
    creates: true,
    uses: WALKS_RETRY_SCHEDULE,
    run: async (ctx) => {
      const { deliveryId, speed, listing: result } = await deadDelivery(ctx);
      const { data } = expectShape(result, list(Delivery), 'D9: deliveries with their attempts');
      const delivery = data.find((d) => d.id === deliveryId) ?? fail('D9: every delivery is listed', `${deliveryId} is missing`, result);
      expect(
        delivery.attempts.length === 6 && delivery.attempts.every((a) => a.statusCode === 500),
        'D9: every attempt is recorded with its status code',
        `${delivery.attempts.length} attempts: ${delivery.attempts.map((a) => a.statusCode).join(', ')}`,
        result,
      );
      const gaps = delivery.attempts.slice(1).map((a, i) => Date.parse(a.at) - Date.parse(delivery.attempts[i]!.at));
      const slack = 1_000 * Math.max(1, speed);
      const wrong = gaps.findIndex((gap, i) => Math.abs(gap - DELAY_MS[i]!) > slack);
      expect(
        wrong === -1,
        'part 6: retries wait 1m, 5m, 30m, 2h, 24h',
        `gap ${wrong + 1} is ${Math.round((gaps[wrong] ?? 0) / 1000)} s, expected ${DELAY_MS[wrong]! / 1000} s`,
        result,
      );
    },
  },
  {
    id: 'webhooks.next-attempt-at',
    tags: ['webhooks', 'retries'],
    description:
      'while a delivery waits for a retry it is listed under ?status=failed with a nextAttemptAt, and the retry comes then on the emulator clock: not a second before, and the attempt is recorded at that time',
    spec: 'part 3.1, part 6, D9, D10',
    profile: 'emulator',
    creates: true,
    uses: WALKS_RETRY_SCHEDULE,
    run: async (ctx) => {
      const { answered, retries, speed, deliveryId, listing: result } = await deadDelivery(ctx);
      const slack = 1_000 * Math.max(1, speed);
      const firstAt = Date.parse(answered.attempts[0]!.at);
      expect(
        Math.abs(Date.parse(answered.nextAttemptAt ?? '') - firstAt - DELAY_MS[0]!) <= slack,
        'part 6: a failed delivery is due again 1 minute after its first attempt',
        `the test answered nextAttemptAt ${answered.nextAttemptAt} after an attempt at ${answered.attempts[0]!.at}`,
      );
      const at = (ms: number): string => (Number.isNaN(ms) ? '?' : new Date(ms).toISOString());
      for (const [index, { listing, listed, cameFrom, cameBy }] of retries.entries()) {
        const rule = `D9: retry ${index + 1} comes at the nextAttemptAt the delivery reported`;
        expect(
          listed !== undefined,
          'D9: a delivery waiting for a retry is listed under ?status=failed',
          `${deliveryId} is missing before retry ${index + 1}`,
          listing,
        );
        expect(listed.status === 'failed', 'D9: ?status=failed lists failed deliveries', `${deliveryId} is listed ${listed.status}`, listing);
        const due = Date.parse(listed.nextAttemptAt ?? '');
        expect(Number.isFinite(due), rule, `nextAttemptAt is ${listed.nextAttemptAt} while a retry is still to come`, listing);
        expect(due <= cameBy + slack, rule, `it came before ${listed.nextAttemptAt}: while the clock moved from ${at(cameFrom)} to ${at(cameBy)}`, listing);
        expect(
          due > cameFrom - slack,
          rule,
          `nothing came at ${listed.nextAttemptAt}: it came while the clock moved from ${at(cameFrom)} to ${at(cameBy)}`,
          listing,
        );
      }
      const { data } = expectShape(result, list(Delivery), 'D9: deliveries with their attempts');
      const dead = data.find((d) => d.id === deliveryId) ?? fail('D9: every delivery is listed', `${deliveryId} is missing`, result);
      for (const [index, { listed }] of retries.entries()) {
        const recorded = dead.attempts[index + 1]?.at;
        expect(
          Math.abs(Date.parse(recorded ?? '') - Date.parse(listed!.nextAttemptAt!)) <= slack,
          'D9: a retry is recorded at the time its nextAttemptAt named',
          `attempt ${index + 2} is recorded at ${recorded}, nextAttemptAt was ${listed!.nextAttemptAt}`,
          result,
        );
      }
      expect(dead.nextAttemptAt === null, 'D9: a dead delivery is due never again (nextAttemptAt null)', `nextAttemptAt ${dead.nextAttemptAt}`, result);
    },
  },
  {
    id: 'webhooks.dlq',
    tags: ['webhooks', 'retries', 'dlq'],
    description: 'after the fifth failed retry the delivery is dead: in ?status=dead and in the DLQ, and nothing more is sent in two days',
    spec: 'part 3.2, part 6.3, D9, D11',
    profile: 'emulator',
    creates: true,
    uses: WALKS_RETRY_SCHEDULE,
    run: async (ctx) => {
      const { deliveryId, dead } = await deadDelivery(ctx);
      expect(
        dead.listing.ok && dead.listing.body.data.some((d) => d.id === deliveryId),
        'D9: ?status=dead lists the dead delivery',
        'not listed as dead',
        dead.listing,
      );
      expect(
        dead.dlq.ok && dead.dlq.body.data.some((d) => d.id === deliveryId),
        'part 3.2: after the fifth failed attempt the delivery is moved to the DLQ',
        'not in GET /_emulator/dlq',
        dead.dlq,
      );
      expectStatus(dead.moved, 200, `D10: POST /_emulator/clock/advance {"by":"${DEAD_WATCH}"}`);
      expect(
        dead.arrivals === 6,
        'part 6.3: a delivery in the DLQ is not retried on its own',
        `${dead.arrivals} requests once the clock moved ${DEAD_WATCH} on`,
      );
    },
  },
  {
    id: 'webhooks.dlq-retry',
    tags: ['webhooks', 'retries', 'dlq'],
    description: 'retrying a DLQ item sends it once more with the same event id; on 2xx it succeeds',
    spec: 'part 3.2 (DLQ items can be retried), D9, D11',
    profile: 'emulator',
    creates: true,
    uses: WALKS_RETRY_SCHEDULE,
    run: async (ctx) => {
      const { hook, deliveryId, arrivals } = await deadDelivery(ctx);
      ctx.receiver.setResponder(hook.url, () => 200);
      const result = await ctx.client.emulator.retryDelivery(deliveryId);
      expectStatus(result, 200, 'D11: POST /_emulator/deliveries/:id/retry');
      const all = await arrival(ctx.receiver.waitFor(hook.url, arrivals.length + 1, arrivalTimeout(ctx)), 'D9: a DLQ retry sends the delivery again', result);
      sameEvent(all, 'D9: a DLQ retry keeps the event id');
      expect(
        result.ok && result.body.data.status === 'succeeded' && result.body.data.attempts.length === arrivals.length + 1,
        'D9: the retried delivery succeeds and its attempts list grows',
        `status ${result.ok ? result.body.data.status : '?'}`,
        result,
      );
      // Every place that reports it says succeeded now: the status filters and the DLQ.
      const listedUnder = async (status: 'succeeded' | 'dead') => {
        const listed = await ctx.client.webhooks.deliveries(hook.id, { status });
        return { listed, has: listed.ok && listed.body.data.some((d) => d.id === deliveryId) };
      };
      // Read at once: each only reads, after the retry answered.
      const [succeeded, dead, dlq] = await Promise.all([listedUnder('succeeded'), listedUnder('dead'), ctx.client.emulator.dlq()]);
      expect(succeeded.has, 'D9: a retried delivery that succeeded is listed under ?status=succeeded', 'missing under succeeded', succeeded.listed);
      expect(!dead.has, 'D9: a retried delivery that succeeded has left ?status=dead', 'still listed under dead', dead.listed);
      expect(dlq.ok && !dlq.body.data.some((d) => d.id === deliveryId), 'D11: a retried delivery that succeeded has left the DLQ', 'still in the DLQ', dlq);
    },
  },
];
