/**
 * Resolving a webhook target and checking it against the policy and against svc's own
 * listeners (targets.ts). A host name is resolved and every address it has must be allowed;
 * the sender connects through the same look-up (`guardedLookup`, undici's public
 * `connect.lookup` option), so the address checked is the address connected to and a DNS
 * answer that changes in between cannot slip through.
 */
import { lookup as systemLookup, Resolver } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';
import type { buildConnector } from 'undici';
import type { ListeningAddress } from '../runtime.js';
import type { Undici } from '../undici.js';
import { checkAddress, selfCall, type SelfCall, type TargetPolicy, type TargetRefusal } from './targets.js';

/** Real milliseconds a look-up of a webhook host may take. */
export const TARGET_LOOKUP_TIMEOUT_MS = 2_000;

/** The addresses of a host name. */
export type HostLookup = (host: string) => Promise<string[]>;

/** Codes of a name that has no address, rather than of a resolver that failed. */
const NO_ADDRESS_CODES = new Set(['ENOTFOUND', 'ENODATA', 'ENONAME']);

/** A webhook target the policy refuses, or svc itself; an attempt records its message as its error. */
export class TargetRefusedError extends Error {
  override name = 'TargetRefusedError';
  readonly code = 'ERR_WEBHOOK_TARGET_REFUSED';
  constructor(readonly refusal: TargetRefusal | SelfCall) {
    super(`target refused: ${refusal.message}`);
  }
}

/** Bounds a look-up; c-ares keeps its own timeout, and this holds whatever it or getaddrinfo does. */
function withTimeout<T>(work: Promise<T>, host: string, timeoutMs: number, cancel?: () => void): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      cancel?.();
      reject(Object.assign(new Error(`looking up ${host} took more than ${timeoutMs} ms`), { code: 'ETIMEOUT' }));
    }, timeoutMs + 250);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

/**
 * The look-up webhooks use: the system's (getaddrinfo: /etc/hosts, then DNS) or, given
 * `host:port`, that DNS server's A and AAAA answers. `localhost` is loopback either way (RFC 6761).
 */
export function hostLookup(dnsServer?: string, timeoutMs = TARGET_LOOKUP_TIMEOUT_MS): HostLookup {
  if (dnsServer === undefined) {
    return async (host) => (await withTimeout(systemLookup(host, { all: true, verbatim: true }), host, timeoutMs)).map((entry) => entry.address);
  }
  return async (host) => {
    if (/(^|\.)localhost\.?$/i.test(host)) return ['127.0.0.1', '::1'];
    const resolver = new Resolver({ timeout: timeoutMs, tries: 1 });
    resolver.setServers([dnsServer]);
    const answers = await withTimeout(Promise.allSettled([resolver.resolve4(host), resolver.resolve6(host)]), host, timeoutMs, () => resolver.cancel());
    const addresses = answers.flatMap((answer) => (answer.status === 'fulfilled' ? answer.value : []));
    if (addresses.length > 0) return addresses;
    const failure = answers.find((answer) => answer.status === 'rejected' && !NO_ADDRESS_CODES.has((answer.reason as NodeJS.ErrnoException).code ?? ''));
    if (failure?.status === 'rejected') throw failure.reason;
    throw Object.assign(new Error(`${host} has no address`), { code: 'ENOTFOUND' });
  };
}

/** The bare host of a URL: `[::1]` → `::1`. */
export function urlHost(url: string): string {
  return new URL(url).hostname.replace(/^\[(.*)\]$/, '$1');
}

/** The port a URL connects to: its own, or its scheme's. */
export function urlPort(url: string): number {
  const parsed = new URL(url);
  return parsed.port !== '' ? Number(parsed.port) : parsed.protocol === 'https:' ? 443 : 80;
}

/** svc's own listeners and the port a target connects to, to refuse a target that is svc itself. */
export interface SelfCheck {
  readonly listening: Iterable<ListeningAddress>;
  readonly port: number;
}

/**
 * Checks `host`'s addresses: the first that reaches svc itself, else the first the policy
 * refuses, else null. svc itself comes first, since no policy allows it.
 */
export function checkAddresses(policy: TargetPolicy, host: string, addresses: readonly string[], self?: SelfCheck): TargetRefusal | SelfCall | null {
  if (self) {
    for (const address of addresses) {
      const refusal = selfCall(self.listening, host, address, self.port);
      if (refusal) return refusal;
    }
  }
  for (const address of addresses) {
    const refusal = checkAddress(policy, host, address);
    if (refusal) return refusal;
  }
  return null;
}

/** Resolves `host` (an address stands for itself) and checks every address: all allowed, or the first refusal. */
export async function resolveTarget(
  policy: TargetPolicy,
  host: string,
  lookup: HostLookup,
  self?: SelfCheck,
): Promise<{ addresses: string[]; refusal: TargetRefusal | SelfCall | null }> {
  const addresses = isIP(host) !== 0 ? [host] : await lookup(host);
  return { addresses, refusal: checkAddresses(policy, host, addresses, self) };
}

/**
 * A `lookup` for net.connect that answers only checked addresses: a host with any refused
 * address, or any that reaches svc itself at `self.port`, fails the connection with TargetRefusedError.
 */
export function guardedLookup(policy: TargetPolicy, lookup: HostLookup, self?: SelfCheck): LookupFunction {
  return (hostname, options, callback) => {
    resolveTarget(policy, hostname, lookup, self).then(
      ({ addresses, refusal }) => {
        if (refusal) return callback(new TargetRefusedError(refusal), '', 4);
        const family = options.family === 4 || options.family === 6 ? options.family : 0;
        const usable = addresses.filter((address) => family === 0 || isIP(address) === family);
        if (usable.length === 0) {
          return callback(Object.assign(new Error(`${hostname} has no IPv${family} address`), { code: 'ENOTFOUND' }), '', 4);
        }
        // net.connect asks for `all` when it tries the addresses in turn (autoSelectFamily).
        if (options.all)
          callback(
            null,
            usable.map((address) => ({ address, family: isIP(address) })),
          );
        else callback(null, usable[0]!, isIP(usable[0]!));
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 4),
    );
  };
}

/**
 * undici's connector, through the guarded look-up for the port asked for, and then a look at
 * the connection as made: an address the look-up never saw (an address in the URL is
 * connected to as it is) or a listener bound after the check cannot make it svc's own.
 */
export function guardedConnector(
  undici: Pick<Undici, 'buildConnector'>,
  policy: TargetPolicy,
  lookup: HostLookup,
  listening: ReadonlySet<ListeningAddress>,
): buildConnector.connector {
  const byPort = new Map<number, buildConnector.connector>();
  return (options, callback) => {
    const port = options.port !== '' ? Number(options.port) : options.protocol === 'https:' ? 443 : 80;
    let connect = byPort.get(port);
    if (!connect) byPort.set(port, (connect = undici.buildConnector({ lookup: guardedLookup(policy, lookup, { listening, port }) })));
    connect(options, (error, socket) => {
      if (error) return callback(error, null);
      const self = socket.remoteAddress === undefined ? null : selfCall(listening, options.hostname, socket.remoteAddress, socket.remotePort ?? port);
      if (!self) return callback(null, socket);
      socket.destroy();
      callback(new TargetRefusedError(self), null);
    });
  };
}
