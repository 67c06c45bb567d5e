/**
 * Every operation of the control plane by operationId, its path below /_emulator
 * (CONTROL_BASE_PATH), where one router serves them all (routes/control.ts). Apart from
 * OPERATIONS so that the control plane's client (the CLI's) loads none of /v1's declarations.
 */
import { controlOperations } from './control.js';
import { harnessOperations } from './control-harness.js';
import { controlSnapshotsOperations } from './control-snapshots.js';
import { controlDnsOperations } from './control-dns.js';
import { mount } from './mount.js';

export { CONTROL_BASE_PATH } from './control.js';

/** The control plane's operations, in the order of its OpenAPI document. */
export const CONTROL_OPERATIONS = {
  ...mount('', controlOperations),
  ...mount('', harnessOperations),
  ...mount('/snapshots', controlSnapshotsOperations),
  ...mount('/dns', controlDnsOperations),
};

export type ControlOperations = typeof CONTROL_OPERATIONS;
export type ControlOperationId = keyof ControlOperations;
