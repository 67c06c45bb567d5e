/**
 * Before any check: is the target there, does it take the key (and the second key, of
 * another tenant), and does its control plane answer (for `--profile auto`). Each problem
 * is a ConfigurationError, reported at once with exit 2 — never a wall of failed checks.
 */
import { apiBaseUrl, BaseUrlError } from '../base-url.js';
import type { Client } from '../client/index.js';
import { TargetUnreachable } from './expect.js';
import { clientsFor, type Target } from './runner.js';
import type { Profile } from './types.js';

export class ConfigurationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigurationError';
  }
}

export type ProfileChoice = Profile | 'auto';

async function checkKey(client: Client, which: string): Promise<void> {
  let result;
  try {
    result = await client.request('GET', '/tenant');
  } catch (error) {
    if (error instanceof TargetUnreachable) throw new ConfigurationError(`cannot reach the target: ${error.message}`);
    throw error;
  }
  if (result.status === 401 || result.status === 403) {
    throw new ConfigurationError(`the target rejects ${which} (GET ${result.request.url} answered ${result.status}: ${result.text.slice(0, 200)})`);
  }
  if (result.status === 404) {
    throw new ConfigurationError(
      `GET ${result.request.url} answered 404: is --url the deployment's base URL (its origin, or the path ending in the version segment /v1)?`,
    );
  }
}

/** Whether /_emulator answers at the target's origin (D14: auto runs emulator checks there). */
export async function hasControlPlane(client: Client): Promise<boolean> {
  try {
    const result = await client.emulator.health();
    return result.ok && typeof (result.body as { data?: unknown } | undefined)?.data === 'object';
  } catch (error) {
    if (error instanceof TargetUnreachable) return false;
    throw error;
  }
}

export async function preflight(target: Target, choice: ProfileChoice): Promise<{ profile: Profile }> {
  try {
    apiBaseUrl(target.baseUrl);
  } catch (error) {
    if (error instanceof BaseUrlError) throw new ConfigurationError(`--url ${error.message}`);
    throw error;
  }
  const { client, second } = clientsFor(target);
  // Asked at once (a far target answers each in a round trip); a problem is told in this order.
  const [primary, secondary, controlPlane] = await Promise.allSettled([
    checkKey(client, '--api-key'),
    second === undefined ? Promise.resolve() : checkKey(second, '--second-api-key'),
    choice === 'spec' ? Promise.resolve(false) : hasControlPlane(client),
  ]);
  for (const outcome of [primary, secondary, controlPlane]) if (outcome.status === 'rejected') throw outcome.reason;
  if (choice === 'spec') return { profile: 'spec' };
  const emulator = controlPlane.status === 'fulfilled' && controlPlane.value === true;
  if (choice === 'emulator' && !emulator) {
    throw new ConfigurationError(`--profile emulator needs the control plane, but ${new URL(target.baseUrl).origin}/_emulator/health does not answer`);
  }
  return { profile: emulator ? 'emulator' : 'spec' };
}

/**
 * Before a run in tenants of its own (--own-tenants): the target must have svc's control plane,
 * which makes them. No key is asked for or sent; the profile is chosen as preflight chooses it.
 */
export async function ownTenantsPreflight(target: Target, choice: ProfileChoice): Promise<{ profile: Profile }> {
  try {
    apiBaseUrl(target.baseUrl);
  } catch (error) {
    if (error instanceof BaseUrlError) throw new ConfigurationError(`--url ${error.message}`);
    throw error;
  }
  const { client } = clientsFor(target);
  let answers: boolean;
  try {
    answers = await hasControlPlane(client);
  } catch (error) {
    throw new ConfigurationError(`cannot reach the target: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!answers) {
    throw new ConfigurationError(
      `--own-tenants needs svc's control plane to make the run's tenants, but ${new URL(target.baseUrl).origin}/_emulator/health does not answer; run without it, with --api-key`,
    );
  }
  return { profile: choice === 'spec' ? 'spec' : 'emulator' };
}
