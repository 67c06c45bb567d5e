/**
 * The typed client of the control plane (`/_emulator`, D10, D11), `client.emulator`: one method
 * per operation of CONTROL_OPERATIONS (operations.ts), named by its operationId, and the same
 * calls again under the short names `client.emulator` has always had, with the test harness's
 * calls and waits (harness.ts). Every call that changes something carries `x-svc-control: 1`
 * (CONTROL_REQUEST_HEADER), which no HTML form can send.
 */
import { CONTROL_BASE_PATH, CONTROL_OPERATIONS } from '../operations/control-plane.js';
import type { z } from '@hono/zod-openapi';
import { CONTROL_REQUEST_HEADER } from '../schemas/control.js';
import type { Snapshot } from '../schemas/snapshots.js';
import { harnessCalls } from './harness.js';
import { callsOf } from './operations.js';
import { send, type ApiResult, type CallOptions, type TransportOptions } from './transport.js';

/** A snapshot as the control plane describes it. */
export type SnapshotInfo = z.infer<typeof Snapshot>;

export interface ControlClientOptions extends TransportOptions {
  /** Any URL of the emulator (its /v1 base URL, say): the control plane is below its origin. */
  baseUrl: string;
}

/** Methods that change nothing: every other one carries the control header. */
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The control plane's client: no API key; `headers` (an admin token's Authorization, say) go with every call. */
export function createControlClient(options: ControlClientOptions) {
  const transport: TransportOptions = { ...options, baseUrl: `${new URL(options.baseUrl).origin}${CONTROL_BASE_PATH}`, apiKey: undefined };
  const call = <T>(method: string, path: string, extra: CallOptions = {}): Promise<ApiResult<T>> =>
    send<T>(transport, method, path, READS.has(method.toUpperCase()) ? extra : { ...extra, headers: { [CONTROL_REQUEST_HEADER]: '1', ...extra.headers } });
  const calls = callsOf(CONTROL_OPERATIONS, call);
  return {
    /** One method per operation of the control plane, named by its operationId in its OpenAPI document. */
    ...calls,
    /** Any method and path below /_emulator (or an absolute URL). */
    request: <T = unknown>(method: string, path: string, extra?: CallOptions): Promise<ApiResult<T>> => call<T>(method, path, extra),
    health: calls.getEmulatorHealth,
    clock: calls.getClock,
    advance: (by: string, extra?: CallOptions) => calls.advanceClock({ by }, extra),
    events: calls.listEvents,
    dlq: calls.listDeadLetters,
    /** Every dead delivery whose webhook is still there, sent once more. */
    retryDlq: calls.retryDeadLetters,
    reset: calls.resetStore,
    seed: calls.seedStore,
    trigger: calls.triggerEvent,
    /** Injected faults (D11): `add({ path, count, status, tenant })`, where `tenant` limits the fault to the requests that tenant's API key makes. */
    faults: { list: calls.listFaults, add: calls.addFault, clear: calls.clearFaults },
    openapi: calls.getControlOpenApiDocument,
    /** Named snapshots of the whole state (docs/control-plane.md#snapshots). */
    snapshots: {
      list: calls.listSnapshots,
      save: (name: string, extra?: CallOptions) => calls.saveSnapshot({ name }, extra),
      get: calls.getSnapshot,
      restore: calls.restoreSnapshot,
      delete: calls.deleteSnapshot,
    },
    /** Emulated DNS TXT records, read by custom-domain verification before any resolver (docs/control-plane.md#emulated-dns). */
    dns: {
      txt: {
        list: calls.listDnsTxtRecords,
        get: (name: string, extra?: CallOptions) => calls.getDnsTxtRecord(name, extra),
        set: (name: string, values: string[], extra?: CallOptions) => calls.setDnsTxtRecord(name, { values }, extra),
        remove: (name: string, extra?: CallOptions) => calls.removeDnsTxtRecord(name, extra),
      },
    },
    ...harnessCalls(calls),
  };
}

export type ControlClient = ReturnType<typeof createControlClient>;
