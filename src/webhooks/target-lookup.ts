/**
 * Resolving a webhook target and checking it against the policy (targets.ts). A host name is
 * resolved and every address it has must be allowed; the sender connects through the same
 * look-up (`guardedLookup`, undici's public `connect.lookup` option), so the address checked
 * is the address connected to and a DNS answer that changes in between cannot slip through.
 */
import { lookup as systemLookup, Resolver } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';
import { checkAddress, type TargetPolicy, type TargetRefusal } from './targets.js';

/** Real milliseconds a look-up of a webhook host may take. */
export const TARGET_LOOKUP_TIMEOUT_MS = 2_000;

/** The addresses of a host name. */
export type HostLookup = (host: string) => Promise<string[]>;

/** Codes of a name that has no address, rather than of a resolver that failed. */
const NO_ADDRESS_CODES = new Set(['ENOTFOUND', 'ENODATA', 'ENONAME']);

/** A webhook target the policy refuses; an attempt records its message as its error. */
export class TargetRefusedError extends Error {
  override name = 'TargetRefusedError';
  readonly code = 'ERR_WEBHOOK_TARGET_REFUSED';
  constructor(readonly refusal: TargetRefusal) {
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

/** Resolves `host` (an address stands for itself) and checks every address: all allowed, or the first refusal. */
export async function resolveTarget(
  policy: TargetPolicy,
  host: string,
  lookup: HostLookup,
): Promise<{ addresses: string[]; refusal: null } | { addresses: string[]; refusal: TargetRefusal }> {
  const addresses = isIP(host) !== 0 ? [host] : await lookup(host);
  for (const address of addresses) {
    const refusal = checkAddress(policy, host, address);
    if (refusal) return { addresses, refusal };
  }
  return { addresses, refusal: null };
}

/**
 * A `lookup` for net.connect that answers only checked addresses: a host with any refused
 * address fails the connection with TargetRefusedError.
 */
export function guardedLookup(policy: TargetPolicy, lookup: HostLookup): LookupFunction {
  return (hostname, options, callback) => {
    resolveTarget(policy, hostname, lookup).then(
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
