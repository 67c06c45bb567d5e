import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime } from '../emulator.js';
import type { Runtime } from '../runtime.js';
import { activeContracts, commandTemplates, submitCommand, visibleContract } from './ledger.js';
import { deniedReason } from './permissions.js';
import type { LedgerCommand, LedgerOutcome } from './types.js';

const TENANT = 'ten_ledgerTest000000001';
const ALICE = 'alice::1220' + 'a1'.repeat(32);
const BOB = 'bob::1220' + 'b0'.repeat(32);
const IOU = '#pkg:Iou:Iou';
const TRANSFER = '#pkg:Iou:IouTransfer';

describe('the embedded ledger', () => {
  let rt: Runtime;
  beforeAll(async () => {
    rt = await createRuntime({ inMemory: true });
  });
  afterAll(() => rt.close());

  const submit = (command: LedgerCommand, party = ALICE, tenantId = TENANT): Promise<LedgerOutcome> =>
    rt.store.write(() => submitCommand(rt, tenantId, party, command));
  const create = async (templateId = IOU, payload: Record<string, unknown> = { amount: '10.0' }) => {
    const outcome = await submit({ create: { templateId, payload } });
    if (outcome.status !== 'completed') throw new Error('create failed');
    return outcome.events[0]!.contractId;
  };

  it('creates a contract signed by the acting party, with an update id', async () => {
    const outcome = await submit({ create: { templateId: IOU, payload: { amount: '5.0', owner: 'me' } } });
    expect(outcome.status).toBe('completed');
    expect(outcome.updateId).toMatch(/^upd_/);
    expect(outcome.events).toEqual([
      { type: 'created', contractId: expect.stringMatching(/^ctr_/), templateId: IOU, payload: { amount: '5.0', owner: 'me' }, signatories: [ALICE] },
    ]);
    const stored = rt.store.get('contracts', outcome.events[0]!.contractId);
    expect(stored).toMatchObject({ tenantId: TENANT, archivedAt: null, createdBy: outcome.updateId });
  });

  it('records a non-consuming choice with its argument, keeps the contract active, and creates the follow-ups', async () => {
    const id = await create();
    const outcome = await submit({
      exercise: { contractId: id, choice: 'Split', argument: { at: '3.0' }, creates: [{ templateId: TRANSFER, payload: { to: BOB } }] },
    });
    expect(outcome.status).toBe('completed');
    expect(outcome.events.map((e) => e.type)).toEqual(['exercised', 'created']);
    expect(outcome.events[0]).toMatchObject({ contractId: id, templateId: IOU, choice: 'Split', argument: { at: '3.0' }, consuming: false });
    expect(outcome.events[1]).toMatchObject({ templateId: TRANSFER, payload: { to: BOB }, signatories: [ALICE] });
    expect(activeContracts(rt, TENANT, ALICE).map((c) => c.id)).toContain(id);
    expect(activeContracts(rt, TENANT, ALICE, TRANSFER).map((c) => c.id)).toEqual([outcome.events[1]!.contractId]);
  });

  it('archives with Archive: exercised (consuming) then archived; the contract leaves the active set', async () => {
    const id = await create();
    const outcome = await submit({ exercise: { contractId: id, choice: 'Archive', argument: {} } });
    expect(outcome.events.map((e) => [e.type, e.contractId])).toEqual([
      ['exercised', id],
      ['archived', id],
    ]);
    expect(outcome.events[0]).toMatchObject({ consuming: true });
    expect(rt.store.get('contracts', id)).toMatchObject({ archivedBy: outcome.updateId });
    expect(activeContracts(rt, TENANT, ALICE).map((c) => c.id)).not.toContain(id);
  });

  it.each([
    { what: 'an archived contract', setup: 'archived', code: 'CONTRACT_NOT_ACTIVE' },
    { what: 'an unknown contract', setup: 'unknown', code: 'CONTRACT_NOT_FOUND' },
    { what: "another party's contract", setup: 'other-party', code: 'CONTRACT_NOT_FOUND' },
    { what: "another tenant's contract", setup: 'other-tenant', code: 'CONTRACT_NOT_FOUND' },
  ])('rejects exercising $what with $code and changes nothing', async ({ setup, code }) => {
    let contractId = 'ctr_doesNotExist00000000';
    let party = ALICE;
    let tenantId = TENANT;
    if (setup !== 'unknown') contractId = await create();
    if (setup === 'archived') await submit({ exercise: { contractId, choice: 'Archive' } });
    if (setup === 'other-party') party = BOB;
    if (setup === 'other-tenant') tenantId = 'ten_someoneElse000000001';
    const before = rt.store.count('contracts');
    const outcome = await submit({ exercise: { contractId, choice: 'Archive', creates: [{ templateId: IOU, payload: {} }] } }, party, tenantId);
    expect(outcome).toMatchObject({ status: 'failed', updateId: null, events: [], rejection: { code } });
    expect(rt.store.count('contracts')).toBe(before);
  });

  it('shows a party only the contracts it signs', async () => {
    const id = await create();
    expect(visibleContract(rt, TENANT, ALICE, id)?.id).toBe(id);
    expect(visibleContract(rt, TENANT, BOB, id)).toBeUndefined();
    expect(activeContracts(rt, TENANT, BOB)).toEqual([]);
  });

  it('orders active contracts newest first on the clock', async () => {
    const first = await create(TRANSFER);
    rt.clock.advance(1_000);
    const second = await create(TRANSFER);
    const ids = activeContracts(rt, TENANT, ALICE, TRANSFER).map((c) => c.id);
    expect(ids.indexOf(second)).toBeLessThan(ids.indexOf(first));
  });
});

describe('delegated permissions', () => {
  const exercise = (choice: string): LedgerCommand => ({ exercise: { contractId: 'ctr_x', choice } });
  it.each([
    { command: { create: { templateId: IOU, payload: {} } }, templates: [IOU], permissions: { templates: [IOU], choices: [] }, denied: false },
    { command: { create: { templateId: TRANSFER, payload: {} } }, templates: [TRANSFER], permissions: { templates: [IOU], choices: [] }, denied: true },
    { command: { create: { templateId: TRANSFER, payload: {} } }, templates: [TRANSFER], permissions: { templates: ['*'], choices: [] }, denied: false },
    { command: exercise('Transfer'), templates: [IOU], permissions: { templates: [IOU], choices: ['Transfer'] }, denied: false },
    { command: exercise('Archive'), templates: [IOU], permissions: { templates: [IOU], choices: ['Transfer'] }, denied: true },
    { command: exercise('Archive'), templates: [IOU], permissions: { templates: [IOU], choices: ['*'] }, denied: false },
    { command: exercise('Transfer'), templates: [IOU, TRANSFER], permissions: { templates: [IOU], choices: ['Transfer'] }, denied: true },
  ] as Array<{ command: LedgerCommand; templates: string[]; permissions: { templates: string[]; choices: string[] }; denied: boolean }>)(
    '$permissions.templates/$permissions.choices for $templates → denied $denied',
    ({ command, templates, permissions, denied }) => {
      expect(deniedReason(permissions, command, templates) !== null).toBe(denied);
    },
  );

  it('names the templates an exercise touches: its contract and its follow-ups', async () => {
    const rt = await createRuntime({ inMemory: true });
    try {
      const outcome = await rt.store.write(() => submitCommand(rt, TENANT, ALICE, { create: { templateId: IOU, payload: {} } }));
      const contractId = outcome.events[0]!.contractId;
      const command: LedgerCommand = { exercise: { contractId, choice: 'Split', creates: [{ templateId: TRANSFER, payload: {} }] } };
      expect(commandTemplates(rt, TENANT, ALICE, command)).toEqual([IOU, TRANSFER]);
      expect(commandTemplates(rt, TENANT, BOB, command)).toEqual([TRANSFER]);
    } finally {
      await rt.close();
    }
  });
});
