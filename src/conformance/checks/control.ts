/** The emulator's control plane (D10, D11): clock and event log, checked where /_emulator answers. */
import { envelope } from '../../schemas/common.js';
import { ClockState } from '../../schemas/control.js';
import { expect, expectShape, expectStatus } from '../expect.js';
import type { Check } from '../types.js';
import { createUser, EVENTS_LOOKED_AT } from './support.js';

export const controlChecks: Check[] = [
  {
    id: 'emulator.clock',
    tags: ['emulator', 'clock'],
    description: 'GET /_emulator/clock answers { data: { now, speed } }; advance moves now forward by the duration',
    spec: 'D10',
    profile: 'emulator',
    creates: false,
    // It moves the clock 1 s, less than anything a check holds on it minds (TOTP codes allow 30 s,
    // challenges 5 minutes); it must only not come between the steps of the retry schedule.
    uses: { clock: 'holds', why: 'moves the clock 1 s, which only the retry schedule, timed to the second, would see' },
    run: async (ctx) => {
      const before = expectShape(await ctx.client.emulator.clock(), envelope(ClockState), 'D10: the clock state');
      const result = await ctx.client.emulator.advance('1s');
      expectStatus(result, 200, 'D10: advance');
      const after = expectShape(result, envelope(ClockState), 'D10: advance answers the clock');
      const moved = Date.parse(after.data.now) - Date.parse(before.data.now);
      expect(moved >= 1_000, 'D10: advance {"by":"1s"} moves the clock 1 s', `moved ${moved} ms`, result);
    },
  },
  {
    id: 'emulator.events',
    tags: ['emulator', 'webhooks'],
    description: 'GET /_emulator/events?type=user.created lists the event of a new user',
    spec: 'D8, D11',
    profile: 'emulator',
    creates: true,
    run: async (ctx) => {
      const user = await createUser(ctx, 'events');
      const result = await ctx.client.emulator.events({ type: 'user.created', limit: EVENTS_LOOKED_AT });
      expectStatus(result, 200, 'D11: the event log');
      expect(
        result.ok && result.body.data.some((e) => JSON.stringify(e['data']).includes(user.id)),
        'D8: every action records its event',
        'no user.created for the new user',
        result,
      );
      expect(result.ok && result.body.data.every((e) => e['type'] === 'user.created'), 'D11: the type filter', 'other types listed', result);
    },
  },
];
