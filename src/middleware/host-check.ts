/**
 * The Host check, against DNS rebinding (docs/control-plane.md#host-names): a page of another site
 * whose name is made to resolve to 127.0.0.1 reaches svc as a same-origin page of its own name, so
 * svc answers only the host names it knows it is reached by. Accepted: the loopback names and
 * addresses (`localhost`, `*.localhost`, 127.0.0.0/8 in any spelling a URL accepts, `[::1]`), and
 * what `--allowed-hosts` lists (svc serve adds its `--host` address); a wildcard address in the list
 * (`0.0.0.0`, `[::]`) accepts every address, as svc is then reached at each of the machine's. An
 * address cannot be rebound, only a name can. The port never matters. This is the rule of Vite's
 * `server.allowedHosts` and webpack-dev-server's `allowedHosts`, applied first by app-base.ts to
 * every route, the health probes included.
 *
 * `all` turns the check off (svc serve warns at start), except for the control plane and the
 * dashboard when no admin token guards them: a rebinding page would drive them from loopback.
 */
import { isIP } from 'node:net';
import type { MiddlewareHandler } from 'hono';
import { ApiError } from '../errors.js';
import { addressRange } from '../webhooks/targets.js';

/** `--allowed-hosts all`: every Host is answered. */
export const ALL_HOSTS = 'all';

/** What `--allowed-hosts` holds: names and addresses besides the loopback ones, or `all`. */
export type AllowedHosts = readonly string[] | typeof ALL_HOSTS;

/** The path below which the control plane and the dashboard live. */
const EMULATOR_PATH = '/_emulator';

/** How many Host values the check remembers its answer for (a client can send any number of them). */
const REMEMBERED_HOSTS = 256;

/**
 * The host name of a Host header or URL authority (`name[:port]`, `[v6][:port]`): lower case, an
 * IPv4 address in its dotted form (`127.1` → `127.0.0.1`), IPv6 in brackets, one trailing dot
 * dropped; null when it is not a host name.
 */
export function hostNameOf(authority: string): string | null {
  if (authority === '' || /[@/\\?#\s]/.test(authority)) return null;
  let url: URL;
  try {
    url = new URL(`http://${authority}`);
  } catch {
    return null;
  }
  return url.hostname === '' ? null : url.hostname.replace(/\.$/, '');
}

/** Whether `hostName` (as hostNameOf gives it) is a loopback name or address. */
export function isLoopbackHostName(hostName: string): boolean {
  if (hostName === 'localhost' || hostName.endsWith('.localhost')) return true;
  const bare = hostName.startsWith('[') ? hostName.slice(1, -1) : hostName;
  return isIP(bare) !== 0 && addressRange(bare) === 'loopback';
}

/**
 * An entry of `--allowed-hosts` in the form the check compares: a name (`.example.com` also
 * stands for every name under example.com), an IPv4 address, or an IPv6 one with or without
 * brackets. Null when it is none of these (a port, a scheme or a path included).
 */
export function allowedHostEntry(text: string): string | null {
  const entry = text.trim().toLowerCase();
  if (entry === '') return null;
  const subdomains = entry.startsWith('.');
  const bare = subdomains ? entry.slice(1) : entry;
  if (bare.startsWith('[') && !bare.endsWith(']')) return null;
  const name = hostNameOf(isIP(bare) === 6 ? `[${bare}]` : bare);
  // A port, or anything a URL would drop or change beyond case and spelling, is refused.
  if (name === null || bare.includes(':') !== name.startsWith('[')) return null;
  return subdomains ? `.${name}` : name;
}

/** Whether a wildcard address (`0.0.0.0`, `[::]`) is listed: svc listens on every address. */
function listsWildcard(listed: readonly string[]): boolean {
  return listed.includes('0.0.0.0') || listed.includes('[::]');
}

/** The check of one Host value against `listed` (entries as allowedHostEntry gives them), remembered. */
export function hostRule(listed: readonly string[]): (authority: string) => boolean {
  const entries = listed.map((text) => allowedHostEntry(text)).filter((entry): entry is string => entry !== null);
  const anyAddress = listsWildcard(entries);
  const accepts = (authority: string): boolean => {
    const name = hostNameOf(authority);
    if (name === null) return false;
    if (isLoopbackHostName(name)) return true;
    if (anyAddress && isIP(name.startsWith('[') ? name.slice(1, -1) : name) !== 0) return true;
    return entries.some((entry) => entry === name || (entry.startsWith('.') && (name === entry.slice(1) || name.endsWith(entry))));
  };
  const remembered = new Map<string, boolean>();
  return (authority) => {
    let answer = remembered.get(authority);
    if (answer === undefined) {
      answer = accepts(authority);
      if (remembered.size >= REMEMBERED_HOSTS) remembered.clear();
      remembered.set(authority, answer);
    }
    return answer;
  };
}

/** The authority of an absolute URL (`http://host:port/path` → `host:port`). */
function authorityOf(url: string): string {
  const start = url.indexOf('//') + 2;
  const end = url.indexOf('/', start);
  return url.slice(start, end === -1 ? url.length : end);
}

/**
 * Refuses, with 403 `host_not_allowed`, a request whose Host (or, for a request with none, such
 * as app.request(), its URL's host) is not accepted. The URL's host is what the app uses as the
 * host it was reached at; it is the Host header's but for a request sent in absolute form, so
 * both are checked.
 */
export function hostCheck(allowed: AllowedHosts | undefined, guarded: { adminToken?: string | undefined } = {}): MiddlewareHandler {
  const accepts = hostRule(allowed === undefined || allowed === ALL_HOSTS ? [] : allowed);
  const all = allowed === ALL_HOSTS;
  // Not async: the chain stays synchronous while its steps are (routing/chain-router.ts).
  return (c, next) => {
    const fromUrl = authorityOf(c.req.url);
    const header = c.req.header('host');
    const refused = !accepts(fromUrl) ? fromUrl : header !== undefined && header !== fromUrl && !accepts(header) ? header : null;
    if (refused === null) return next();
    const path = c.req.path;
    const emulator = path === EMULATOR_PATH || path.startsWith(`${EMULATOR_PATH}/`);
    if (all && (guarded.adminToken !== undefined || !emulator)) return next();
    const name = hostNameOf(refused) ?? refused.slice(0, 100);
    throw new ApiError(
      'host_not_allowed',
      all
        ? `svc answers ${EMULATOR_PATH} only at a loopback name or one --allowed-hosts lists, even with --allowed-hosts all, unless --admin-token is set; "${name}" is neither`
        : `svc does not answer the host name "${name}" (a guard against DNS rebinding); call it at 127.0.0.1 or localhost, or start svc serve with --allowed-hosts ${name}`,
    );
  };
}
