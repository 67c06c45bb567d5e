/**
 * The request journal (issue 35): the last requests the emulator answered, with their tenant,
 * status, request id, duration and bodies (secrets redacted), for tests that assert "the app
 * called X". It lives in this process's memory, never in the store: it is a view of what this
 * process answered, lost at a restart, and each process sharing a PostgreSQL store keeps its own.
 */
import type { Runtime } from '../runtime.js';
import type { RequestsFilter } from '../schemas/harness.js';

/** How many requests the journal keeps; the oldest go first. */
export const JOURNAL_CAPACITY = 2000;
/** How much of a body is kept; longer ones are cut, and say so. */
export const JOURNAL_BODY_CHARS = 16 * 1024;

export const REDACTED = '[redacted]';

/** Field names whose values are secrets wherever they appear in a body (keys, webhook secrets, tokens, shares, codes). */
const SECRET_FIELD = /^(key|apiKey|secret|token|sessionToken|botToken|password|code|share|shares|privateKey|otpauthUrl|otpauthUri|recoveryCodes)$/i;

export interface JournalEntry {
  /** Increases by one per request this process answered; `after` filters on it. */
  seq: number;
  /** Real (wall-clock) time the request arrived, ISO. */
  time: string;
  /** The emulator clock when it arrived, ISO (D10). */
  emulatedTime: string;
  tenantId: string | null;
  method: string;
  path: string;
  query: string;
  status: number;
  requestId: string;
  durationMs: number;
  /** The JSON body as sent, secrets redacted; null when there was none. */
  requestBody: unknown;
  responseBody: unknown;
}

/** A JSON value with every secret field's value replaced. */
export function redact(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redact);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(value as Record<string, unknown>)) {
    out[name] = SECRET_FIELD.test(name) && field !== null && field !== undefined ? REDACTED : redact(field);
  }
  return out;
}

/** A body's text as the journal keeps it: parsed JSON, redacted; a text that is not JSON is kept cut to size. */
export function journalBody(text: string | undefined): unknown {
  if (text === undefined || text === '') return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return text.length > JOURNAL_BODY_CHARS ? `${text.slice(0, JOURNAL_BODY_CHARS)}… (${text.length} characters)` : text;
  }
  if (text.length > JOURNAL_BODY_CHARS) return `(a JSON body of ${text.length} characters, not kept)`;
  return redact(parsed);
}

function statusMatches(status: number, wanted: string): boolean {
  return wanted.endsWith('xx') ? Math.floor(status / 100) === Number(wanted[0]) : status === Number(wanted);
}

function pathMatches(path: string, wanted: string): boolean {
  return wanted.endsWith('*') ? path.startsWith(wanted.slice(0, -1)) : path === wanted;
}

export class RequestJournal {
  readonly #entries: JournalEntry[] = [];
  #seq = 0;

  constructor(readonly capacity = JOURNAL_CAPACITY) {}

  /** The next sequence number, taken when a request arrives (so entries keep arrival order by seq). */
  nextSeq(): number {
    return ++this.#seq;
  }

  add(entry: JournalEntry): void {
    if (this.capacity === 0) return;
    this.#entries.push(entry);
    if (this.#entries.length > this.capacity) this.#entries.splice(0, this.#entries.length - this.capacity);
  }

  /** The entries that pass the filter, oldest first; with `limit`, the newest `limit` of them. */
  list(filter: RequestsFilter = {}): JournalEntry[] {
    const found = this.#entries
      .filter(
        (entry) =>
          (filter.after === undefined || entry.seq > filter.after) &&
          (filter.tenant === undefined || entry.tenantId === filter.tenant) &&
          (filter.method === undefined || entry.method === filter.method) &&
          (filter.path === undefined || pathMatches(entry.path, filter.path)) &&
          (filter.status === undefined || statusMatches(entry.status, filter.status)) &&
          (filter.request_id === undefined || entry.requestId === filter.request_id),
      )
      .sort((a, b) => a.seq - b.seq);
    return filter.limit === undefined ? found : found.slice(-filter.limit);
  }

  /** Forgets every entry, or one tenant's. Answers how many went. */
  clear(tenantId?: string): number {
    const before = this.#entries.length;
    const kept = tenantId === undefined ? [] : this.#entries.filter((entry) => entry.tenantId !== tenantId);
    this.#entries.splice(0, this.#entries.length, ...kept);
    return before - kept.length;
  }
}

const journals = new WeakMap<Runtime, RequestJournal>();

/** The runtime's one request journal. */
export function requestJournal(rt: Runtime): RequestJournal {
  let journal = journals.get(rt);
  if (!journal) journals.set(rt, (journal = new RequestJournal()));
  return journal;
}
