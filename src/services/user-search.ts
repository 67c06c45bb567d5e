/**
 * Search over a tenant's users (DESIGN D7: `search` is a case-insensitive substring of email
 * or name). The users' lowercased "email name" texts are joined, newest first, into one
 * string per tenant, rebuilt only after the tenant's users change; a search is then a run of
 * native indexOf calls over that string, with each hit mapped back to its user by binary
 * search over the record offsets. 100,000 users search in about a millisecond.
 */
import type { Runtime } from '../runtime.js';
import type { UserRecord } from '../store/records.js';

/** Cannot occur in a search term (control characters are dropped from it), so no hit spans two fields. */
const SEPARATOR = '\u0001';
const FIELD_SEPARATOR = '\u0002';

interface TenantIndex {
  version: number;
  text: string;
  /** offsets[i] is where record i's text starts; one more entry marks the end. */
  offsets: Int32Array;
  records: readonly UserRecord[];
}

const indexes = new WeakMap<Runtime, Map<string, TenantIndex>>();

function buildIndex(records: readonly UserRecord[], version: number): TenantIndex {
  const offsets = new Int32Array(records.length + 1);
  const parts: string[] = new Array(records.length);
  let at = 0;
  for (let i = 0; i < records.length; i++) {
    const user = records[i]!;
    const part = `${user.email ?? ''}${FIELD_SEPARATOR}${user.name ?? ''}`.toLowerCase() + SEPARATOR;
    offsets[i] = at;
    parts[i] = part;
    at += part.length;
  }
  offsets[records.length] = at;
  return { version, text: parts.join(''), offsets, records };
}

function indexFor(rt: Runtime, tenantId: string): TenantIndex {
  let byTenant = indexes.get(rt);
  if (!byTenant) indexes.set(rt, (byTenant = new Map()));
  const version = rt.store.version('users', tenantId);
  let index = byTenant.get(tenantId);
  if (!index || index.version !== version) {
    index = buildIndex(rt.store.newestFirst('users', tenantId), version);
    byTenant.set(tenantId, index);
  }
  return index;
}

/** The record whose text holds character `position`: the last offset ≤ position. */
function recordAt(offsets: Int32Array, position: number): number {
  let low = 0;
  let high = offsets.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >>> 1;
    if (offsets[mid]! <= position) low = mid;
    else high = mid - 1;
  }
  return low;
}

/** The tenant's users whose email or name contains `term` (case-insensitive), newest first. */
export function searchUsers(rt: Runtime, tenantId: string, term: string): UserRecord[] {
  const needle = term.toLowerCase().replace(/[\u0000-\u001f]/g, '');
  const index = indexFor(rt, tenantId);
  if (needle === '') return [...index.records];
  const found: UserRecord[] = [];
  let from = 0;
  for (;;) {
    const hit = index.text.indexOf(needle, from);
    if (hit === -1) break;
    const record = recordAt(index.offsets, hit);
    found.push(index.records[record]!);
    from = index.offsets[record + 1]!;
  }
  return found;
}
