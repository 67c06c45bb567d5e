/**
 * The embedded ledger (D13): contracts of any template id, no Daml packages. A command
 * is checked whole before anything changes, so a transaction either applies all its events or
 * none (the ledger's atomicity). Contracts live in the store's `contracts` collection, durable
 * like every other record; a party sees the contracts it signs.
 */
import { newId } from '../ids.js';
import type { Runtime } from '../runtime.js';
import type { z } from '@hono/zod-openapi';
import type { Contract } from '../schemas/delegated-sessions.js';
import type { ContractRecord } from '../store/records.js';
import { ARCHIVE_CHOICE, type JsonObject, type LedgerCommand, type LedgerEvent, type LedgerOutcome, type LedgerRejection } from './types.js';

/** A contract as the API shows it: the `Contract` schema's type. */
export type ContractView = z.infer<typeof Contract>;

export function contractView(contract: ContractRecord): ContractView {
  return {
    contractId: contract.id,
    templateId: contract.templateId,
    payload: contract.payload,
    signatories: contract.signatories,
    createdAt: contract.createdAt,
    status: contract.archivedAt === null ? 'active' : 'archived',
    archivedAt: contract.archivedAt,
  };
}

function isVisible(contract: ContractRecord, party: string): boolean {
  return contract.signatories.includes(party);
}

/** A contract of the tenant that `party` can see, active or not. */
export function visibleContract(rt: Runtime, tenantId: string, party: string, contractId: string): ContractRecord | undefined {
  const contract = rt.store.getOwned('contracts', tenantId, contractId);
  return contract && isVisible(contract, party) ? contract : undefined;
}

/** The active contracts `party` can see, optionally of one template, newest first then id (D7). */
export function activeContracts(rt: Runtime, tenantId: string, party: string, templateId?: string): ContractRecord[] {
  return rt.store
    .ofTenant('contracts', tenantId)
    .filter((c) => c.archivedAt === null && isVisible(c, party) && (templateId === undefined || c.templateId === templateId))
    .sort((a, b) => (a.createdAt !== b.createdAt ? (a.createdAt < b.createdAt ? 1 : -1) : a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
}

function reject(code: LedgerRejection['code'], message: string): LedgerOutcome {
  return { status: 'failed', updateId: null, events: [], rejection: { code, message } };
}

function newContract(tenantId: string, party: string, templateId: string, payload: JsonObject, at: string, updateId: string): ContractRecord {
  return { id: newId('ctr'), tenantId, templateId, payload, signatories: [party], createdAt: at, createdBy: updateId, archivedAt: null, archivedBy: null };
}

function createdEvent(contract: ContractRecord): LedgerEvent {
  return { type: 'created', contractId: contract.id, templateId: contract.templateId, payload: contract.payload, signatories: contract.signatories };
}

/**
 * Submits one command acting as `actAs` and applies it (call inside `rt.store.write()`).
 * A command on a contract the party cannot see, or one already archived, is rejected with
 * Canton's error id and changes nothing.
 */
export function submitCommand(rt: Runtime, tenantId: string, actAs: string, command: LedgerCommand): LedgerOutcome {
  const at = rt.clock.iso();
  const updateId = newId('upd');
  if ('create' in command) {
    const contract = newContract(tenantId, actAs, command.create.templateId, command.create.payload, at, updateId);
    rt.store.insert('contracts', contract);
    return { status: 'completed', updateId, events: [createdEvent(contract)] };
  }
  const { contractId, choice, argument = {}, creates = [] } = command.exercise;
  const target = visibleContract(rt, tenantId, actAs, contractId);
  if (!target) return reject('CONTRACT_NOT_FOUND', `contract ${contractId} not found, or not visible to ${actAs}`);
  if (target.archivedAt !== null) return reject('CONTRACT_NOT_ACTIVE', `contract ${contractId} was archived by ${target.archivedBy ?? 'an earlier update'}`);
  const consuming = choice === ARCHIVE_CHOICE;
  const events: LedgerEvent[] = [{ type: 'exercised', contractId, templateId: target.templateId, choice, argument, consuming }];
  if (consuming) {
    rt.store.update('contracts', contractId, { archivedAt: at, archivedBy: updateId });
    events.push({ type: 'archived', contractId, templateId: target.templateId });
  }
  for (const follow of creates) {
    const contract = newContract(tenantId, actAs, follow.templateId, follow.payload, at, updateId);
    rt.store.insert('contracts', contract);
    events.push(createdEvent(contract));
  }
  return { status: 'completed', updateId, events };
}

/** The templates a command touches: what a delegated session's permissions are checked against. */
export function commandTemplates(rt: Runtime, tenantId: string, actAs: string, command: LedgerCommand): string[] {
  if ('create' in command) return [command.create.templateId];
  const target = visibleContract(rt, tenantId, actAs, command.exercise.contractId);
  return [...(target ? [target.templateId] : []), ...(command.exercise.creates ?? []).map((c) => c.templateId)];
}
