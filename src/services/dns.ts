/**
 * TXT look-ups for custom-domain verification (D13) through Node's own resolver,
 * pointed at `--dns-server host:port` when given, else at the system's servers. A look-up
 * always ends within DNS_TIMEOUT_MS: a resolver that does not answer is a clear error,
 * never a hanging request.
 */
import { Resolver } from 'node:dns/promises';

/** Real milliseconds one look-up may take before the resolver counts as not answering. */
export const DNS_TIMEOUT_MS = 2_000;

/** Resolver codes that mean "the name has no such record" rather than "DNS is down". */
const NO_RECORD_CODES = new Set(['ENOTFOUND', 'ENODATA', 'ENONAME']);

/** The resolver could not answer (timeout, refused, server failure): not the domain's fault. */
export class DnsUnavailableError extends Error {
  override name = 'DnsUnavailableError';
  constructor(
    message: string,
    readonly reason: string,
  ) {
    super(message);
  }
}

export interface TxtLookupOptions {
  /** `host:port` (or `[v6]:port`); undefined uses the system's servers. */
  server?: string | undefined;
  timeoutMs?: number;
}

/** Checks a `--dns-server` value; answers the reason it is not `host:port`, or null when it is. */
export function dnsServerProblem(server: string): string | null {
  const match = /^(\[[0-9A-Fa-f:.]+\]|[^:[\]\s]+):(\d{1,5})$/.exec(server);
  if (!match) return 'expected host:port, e.g. 127.0.0.1:5353';
  const port = Number(match[2]);
  if (port < 1 || port > 65535) return `port ${port} is out of range`;
  return null;
}

/**
 * The TXT records at `name`, each joined from its character strings; [] when the name has
 * none. Throws DnsUnavailableError when the resolver fails or does not answer in time.
 */
export async function lookupTxt(name: string, options: TxtLookupOptions = {}): Promise<string[]> {
  const timeoutMs = options.timeoutMs ?? DNS_TIMEOUT_MS;
  const resolver = new Resolver({ timeout: timeoutMs, tries: 1 });
  if (options.server !== undefined) resolver.setServers([options.server]);
  const where = options.server ?? 'the system resolver';
  let timer: NodeJS.Timeout | undefined;
  // c-ares keeps its own timeout; this guard makes the bound hold whatever c-ares does.
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      resolver.cancel();
      reject(new DnsUnavailableError(`DNS server ${where} did not answer within ${timeoutMs} ms`, 'ETIMEOUT'));
    }, timeoutMs + 250);
  });
  try {
    const records = await Promise.race([resolver.resolveTxt(name), deadline]);
    return records.map((chunks) => chunks.join(''));
  } catch (error) {
    if (error instanceof DnsUnavailableError) throw error;
    const code = (error as NodeJS.ErrnoException).code ?? 'EUNKNOWN';
    if (NO_RECORD_CODES.has(code)) return [];
    const why = code === 'ETIMEOUT' ? `did not answer within ${timeoutMs} ms` : `failed (${code})`;
    throw new DnsUnavailableError(`DNS server ${where} ${why} looking up ${name}`, code);
  } finally {
    clearTimeout(timer);
  }
}
