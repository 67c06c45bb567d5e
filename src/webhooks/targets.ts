/**
 * The webhook target policy (D17): which addresses a tenant's webhook may
 * reach, and the rule no policy changes: a webhook never reaches svc itself (`selfCall`). A policy is a comma-separated list of terms, and an address is allowed when any
 * term allows it: a preset (`local`, `public`, `any`), a network (`10.0.0.0/8`, `fd00::/8`,
 * one address) or a host name (`hooks.internal`, `*.hooks.internal`). Link-local addresses
 * (cloud metadata lives at 169.254.169.254) are refused unless `any` or a network names them.
 */
import { BlockList, isIP } from 'node:net';
import { networkInterfaces } from 'node:os';
import type { ListeningAddress } from '../runtime.js';

export type AddressRange = 'loopback' | 'private' | 'link-local' | 'reserved' | 'public';

/** The presets and the ranges each allows. */
export const PRESETS = {
  local: ['loopback', 'private', 'public'],
  public: ['public'],
  any: ['loopback', 'private', 'link-local', 'reserved', 'public'],
} as const satisfies Record<string, readonly AddressRange[]>;

export type Preset = keyof typeof PRESETS;

/** A laptop's policy: loopback, private networks and the internet, never link-local. */
export const DEFAULT_TARGET_POLICY = 'local';

/** What each range holds, for messages and the docs. */
export const RANGE_NETWORKS: Record<AddressRange, readonly string[]> = {
  loopback: ['127.0.0.0/8', '::1/128'],
  'link-local': ['169.254.0.0/16', 'fe80::/10'],
  private: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '100.64.0.0/10', 'fc00::/7'],
  reserved: [
    '0.0.0.0/8',
    '192.0.0.0/24',
    '192.0.2.0/24',
    '198.18.0.0/15',
    '198.51.100.0/24',
    '203.0.113.0/24',
    '224.0.0.0/4',
    '240.0.0.0/4',
    '::/96',
    '100::/64',
    '2001:db8::/32',
    'fec0::/10',
    'ff00::/8',
  ],
  public: [],
};

/** Checked in this order: `::1` is in `::/96` too, and is loopback. */
const RANGE_ORDER: readonly AddressRange[] = ['loopback', 'link-local', 'private', 'reserved'];

function blockList(networks: readonly string[]): BlockList {
  const list = new BlockList();
  for (const network of networks) {
    const [address, prefix] = network.split('/') as [string, string];
    const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    list.addSubnet(address, Number(prefix), family);
  }
  return list;
}

const RANGE_LISTS = new Map(RANGE_ORDER.map((range) => [range, blockList(RANGE_NETWORKS[range])]));

/** The 8 groups of an IPv6 address, or null if it is not one. */
function ipv6Groups(address: string): number[] | null {
  if (isIP(address) !== 6) return null;
  let text = address.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1]!.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? (text.split('::') as [string, string]) : [text, null];
  const parse = (part: string): number[] => (part === '' ? [] : part.split(':').map((group) => parseInt(group, 16)));
  const front = parse(head);
  const back = tail === null ? [] : parse(tail);
  return [...front, ...new Array<number>(8 - front.length - back.length).fill(0), ...back];
}

/**
 * The IPv4 address an IPv6 one stands for, when it embeds one that the host would reach as
 * IPv4: IPv4-mapped (`::ffff:169.254.169.254`) and NAT64 (`64:ff9b::a9fe:a9fe`).
 */
function embeddedIpv4(address: string): string | null {
  const groups = ipv6Groups(address);
  if (!groups) return null;
  const mapped = groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff;
  const nat64 = groups[0] === 0x64 && groups[1] === 0xff9b && groups.slice(2, 6).every((g) => g === 0);
  if (!mapped && !nat64) return null;
  const [high, low] = [groups[6]!, groups[7]!];
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
}

/** Which range an IP address is in. */
export function addressRange(address: string): AddressRange {
  const v4 = embeddedIpv4(address);
  const [ip, family] = v4 !== null ? [v4, 'ipv4' as const] : [address, isIP(address) === 6 ? ('ipv6' as const) : ('ipv4' as const)];
  for (const range of RANGE_ORDER) if (RANGE_LISTS.get(range)!.check(ip, family)) return range;
  return 'public';
}

export interface TargetPolicy {
  /** The policy as written, for messages. */
  readonly text: string;
  readonly ranges: ReadonlySet<AddressRange>;
  /** The networks the policy names, and as written. */
  readonly networks: BlockList;
  readonly networkTexts: readonly string[];
  /** Host names it names, lower case; `*.example.com` stands for every name under example.com. */
  readonly hosts: readonly string[];
}

/** A policy that cannot be read; its message says which term and what is expected. */
export class TargetPolicyError extends Error {
  override name = 'TargetPolicyError';
}

/** A host name with at least one dot, so that a slip such as `locals` is not taken for one. */
const HOST_NAME = /^(\*\.)?([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

function addNetwork(list: BlockList, term: string): boolean {
  const [address = '', prefix, ...rest] = term.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  const max = family === 4 ? 32 : 128;
  const bits = prefix === undefined ? max : /^\d{1,3}$/.test(prefix) ? Number(prefix) : NaN;
  if (!(bits >= 0 && bits <= max)) throw new TargetPolicyError(`"${term}": the prefix length must be a whole number from 0 to ${max}`);
  list.addSubnet(address, bits, family === 4 ? 'ipv4' : 'ipv6');
  return true;
}

/** Reads a policy such as `local`, `public,10.1.0.0/16,hooks.internal` or `hooks.internal`. */
export function parseTargetPolicy(text: string): TargetPolicy {
  const terms = text
    .split(',')
    .map((term) => term.trim())
    .filter((term) => term !== '');
  if (terms.length === 0) throw new TargetPolicyError('the policy is empty; give local, public, any, or networks and host names separated by commas');
  const ranges = new Set<AddressRange>();
  const networks = new BlockList();
  const networkTexts: string[] = [];
  const hosts: string[] = [];
  for (const term of terms) {
    if (Object.hasOwn(PRESETS, term)) {
      for (const range of PRESETS[term as Preset]) ranges.add(range);
    } else if (addNetwork(networks, term)) {
      networkTexts.push(term);
    } else {
      const host = term.toLowerCase();
      if (!HOST_NAME.test(host) || /^[\d.]+$/.test(host)) {
        throw new TargetPolicyError(
          `"${term}" is neither a preset (local, public, any), a network such as 10.0.0.0/8 or fd00::/8, nor a host name with a dot such as hooks.internal or *.hooks.internal`,
        );
      }
      hosts.push(host);
    }
  }
  return { text: terms.join(','), ranges, networks, networkTexts, hosts };
}

const parsed = new Map<string, TargetPolicy>();

/** The policy of a runtime's `webhookTargets` (default `local`), read once per text. */
export function targetPolicy(text: string = DEFAULT_TARGET_POLICY): TargetPolicy {
  let policy = parsed.get(text);
  if (!policy) parsed.set(text, (policy = parseTargetPolicy(text)));
  return policy;
}

function hostMatches(policy: TargetPolicy, host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  return policy.hosts.some((entry) => (entry.startsWith('*.') ? name.endsWith(entry.slice(1)) : name === entry));
}

/** Why an address is refused: what it is, and what the policy allows. */
export interface TargetRefusal {
  host: string;
  address: string;
  range: AddressRange;
  policy: string;
  message: string;
}

/** `a`, `a and b`, `a, b and c`. */
function listed(parts: readonly string[]): string {
  return parts.length <= 1 ? (parts[0] ?? '') : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)!}`;
}

/** What a policy allows, in words: `loopback, private and public addresses, 10.0.0.0/8 and hooks.internal`. */
export function describeTargetPolicy(policy: TargetPolicy): string {
  const ranges = policy.ranges.size === 5 ? ['every address'] : policy.ranges.size > 0 ? [`${listed([...policy.ranges])} addresses`] : [];
  return listed([...ranges, ...policy.networkTexts, ...policy.hosts]);
}

/**
 * Whether `host`, at `address`, may be reached. A host the policy names may reach any address
 * but a link-local one, which only `any` or a named network allows.
 */
export function checkAddress(policy: TargetPolicy, host: string, address: string): TargetRefusal | null {
  const range = addressRange(address);
  if (policy.ranges.has(range)) return null;
  const v4 = embeddedIpv4(address);
  if (v4 !== null ? policy.networks.check(v4, 'ipv4') : policy.networks.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4')) return null;
  if (range !== 'link-local' && hostMatches(policy, host)) return null;
  const where = host === address ? address : `${host} (${address})`;
  return {
    host,
    address,
    range,
    policy: policy.text,
    message: `${where} is a ${range} address, and the webhook target policy "${policy.text}" allows ${describeTargetPolicy(policy)}`,
  };
}

/** Why a target is refused whatever the policy: it reaches a listener of this svc. */
export interface SelfCall {
  host: string;
  address: string;
  port: number;
  /** The listener it reaches, as bound (`0.0.0.0:4010` for `192.168.1.5:4010`). */
  listener: ListeningAddress;
  message: string;
}

/** Where the rule is written down; cited in every refusal. */
export const SELF_CALL_DOC = 'docs/webhook-targets.md#svc-never-calls-itself';

/** `127.0.0.1:4010`, `[::1]:4010`. */
export function hostPort(address: string, port: number): string {
  return `${isIP(address) === 6 ? `[${address}]` : address}:${port}`;
}

/**
 * One spelling per address, to compare: IPv4-mapped IPv6 as its IPv4 address (an IPv6 socket
 * reaches an IPv4 listener through it), other IPv6 as its 8 groups, without a zone.
 */
function canonicalAddress(address: string): string {
  const bare = address.replace(/%.*$/, '');
  const groups = ipv6Groups(bare);
  if (!groups) return bare;
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    const [high, low] = [groups[6]!, groups[7]!];
    return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
  }
  return groups.map((g) => g.toString(16)).join(':');
}

const LOOPBACK = blockList(RANGE_NETWORKS.loopback);
/** 0.0.0.0 and :: as a destination connect to the local host (Linux sends them to loopback). */
const WILDCARDS = new Set(['0.0.0.0', '0:0:0:0:0:0:0:0']);

function isLoopback(canonical: string): boolean {
  return LOOPBACK.check(canonical, isIP(canonical) === 6 ? 'ipv6' : 'ipv4');
}

/** The addresses of this host's interfaces now (an interface may come up after the start). */
function interfaceAddresses(): Set<string> {
  const found = new Set<string>();
  for (const entries of Object.values(networkInterfaces())) for (const entry of entries ?? []) found.add(canonicalAddress(entry.address));
  return found;
}

/**
 * Whether a connection to `address` (canonical) arrives at a listener bound to `bound`
 * (canonical). Loopback counts as one place: `localhost` may be 127.0.0.1 or ::1, whichever
 * answers first, so a listener on one of them is refused through all of them.
 */
function arrivesAt(address: string, bound: string): boolean {
  if (address === bound) return true;
  const local = isLoopback(address) || WILDCARDS.has(address);
  if (WILDCARDS.has(bound)) return local || interfaceAddresses().has(address);
  return isLoopback(bound) && local;
}

/**
 * The refusal when `host`, at `address`:`port`, reaches one of `listening` (this process's
 * listeners), whatever the policy: a webhook that reached svc could reset it, seed it or
 * trigger events that trigger themselves. Any other port of the same address is allowed:
 * that is the developer's own handler.
 */
export function selfCall(listening: Iterable<ListeningAddress>, host: string, address: string, port: number): SelfCall | null {
  const target = canonicalAddress(address);
  for (const listener of listening) {
    if (listener.port !== port || !arrivesAt(target, canonicalAddress(listener.address))) continue;
    const at = hostPort(address, port);
    const where = host === address ? at : `${host} at ${at}`;
    const bound = hostPort(listener.address, listener.port);
    const reaches = bound === at ? where : `${where}, where svc listens on ${bound}`;
    return {
      host,
      address,
      port,
      listener,
      message: `the URL reaches svc itself (${reaches}); svc never calls itself, whatever the webhook target policy, see ${SELF_CALL_DOC}`,
    };
  }
  return null;
}
