/**
 * The request journal: the last requests the emulator answered, with their tenant, status,
 * request id, duration and bodies, for tests that assert "the app called X". A body's secrets
 * are hidden when the journal is read: the values its operation's schemas mark with secret()
 * (docs/testing-with-svc.md#secrets), and nothing else, so an error's `code` reads as answered.
 * It lives in this process's memory, never in the store: it is a view of what this process
 * answered, lost at a restart, and each process sharing a PostgreSQL store keeps its own.
 */
import type { Runtime } from '../runtime.js';
import type { JournalEntry, RequestsFilter } from '../schemas/harness.js';
import { hideSecrets, type SecretPath } from '../schemas/secret.js';
import { responseSecrets, secretsOfRequest } from './secret-places.js';

/** How many requests the journal keeps; the oldest go first. */
export const JOURNAL_CAPACITY = 1000;
/** How much of a body is kept; longer ones are cut, and say so. */
export const JOURNAL_BODY_CHARS = 16 * 1024;

/** How deep a kept body may nest; a body of 16 KiB can nest 8,000 levels, more than the stack takes. */
const KEPT_DEPTH = 64;
const TOO_DEEP = `(nested deeper than ${KEPT_DEPTH} levels, not kept)`;

/** A JSON value as the journal keeps it: what nests deeper than KEPT_DEPTH is cut off. */
function cutDeep(value: unknown, depth = 0): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (depth >= KEPT_DEPTH) return TOO_DEEP;
  if (Array.isArray(value)) return value.map((item) => cutDeep(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(value as Record<string, unknown>)) out[name] = cutDeep(field, depth + 1);
  return out;
}

/**
 * A body's text as the journal keeps it: parsed JSON with the values at `secrets` (the paths its
 * operation's schema marks, services/secret-places.ts) hidden; a text that is not JSON is kept
 * cut to size (no schema marks a field of it).
 */
export function journalBody(text: string | undefined, secrets: readonly SecretPath[] = []): unknown {
  if (text === undefined || text === '') return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return text.length > JOURNAL_BODY_CHARS ? `${text.slice(0, JOURNAL_BODY_CHARS)}… (${text.length} characters)` : text;
  }
  if (text.length > JOURNAL_BODY_CHARS) return `(a JSON body of ${text.length} characters, not kept)`;
  return cutDeep(hideSecrets(parsed, secrets));
}

function statusMatches(status: number, wanted: string): boolean {
  return wanted.endsWith('xx') ? Math.floor(status / 100) === Number(wanted[0]) : status === Number(wanted);
}

function pathMatches(path: string, wanted: string): boolean {
  return wanted.endsWith('*') ? path.startsWith(wanted.slice(0, -1)) : path === wanted;
}

/**
 * One request as the middleware leaves it: what the request already made (the body text's
 * promise, the value given to c.json()), made into a JournalEntry only when the journal is read.
 */
export interface RawEntry extends Pick<JournalEntry, 'seq' | 'tenantId' | 'method' | 'path' | 'query' | 'status' | 'requestId'> {
  /** Date.now() and the emulator clock (ms) when it arrived; performance.now() when it arrived and ended. */
  wallMs: number;
  emulatedMs: number;
  startedAt: number;
  endedAt: number;
  sent: Promise<string> | undefined;
  /** The answer as the app made it; its body is read when the journal is, long after it was sent. */
  answer: Response | undefined;
  /** Or, for an answer made from JSON text ahead (answers/json-answer.ts), that text. */
  answerText: string | undefined;
}

/**
 * A JSON answer's text, read from a copy of it; none for other answers, or for one whose body
 * was read as a stream (in-process, by the caller of app.request()). An answer jsonAnswer()
 * made is kept as its text instead, so it is journaled whoever read it.
 */
async function answerText(answer: Response | undefined): Promise<string | undefined> {
  if (answer === undefined || answer.bodyUsed || !answer.headers.get('content-type')?.startsWith('application/json')) return undefined;
  return answer
    .clone()
    .text()
    .catch(() => undefined);
}

async function view(raw: RawEntry): Promise<JournalEntry> {
  const sent = raw.sent === undefined ? undefined : await raw.sent.catch(() => undefined);
  const secrets = secretsOfRequest(raw.method, raw.path);
  return {
    seq: raw.seq,
    time: new Date(raw.wallMs).toISOString(),
    emulatedTime: new Date(raw.emulatedMs).toISOString(),
    tenantId: raw.tenantId,
    method: raw.method,
    path: raw.path,
    query: raw.query,
    status: raw.status,
    requestId: raw.requestId,
    durationMs: Math.round((raw.endedAt - raw.startedAt) * 1000) / 1000,
    requestBody: journalBody(sent, secrets?.request),
    responseBody: journalBody(raw.answerText ?? (await answerText(raw.answer)), secrets === undefined ? [] : responseSecrets(secrets, raw.status)),
  };
}

export class RequestJournal {
  readonly #entries: RawEntry[] = [];
  #seq = 0;

  constructor(readonly capacity = JOURNAL_CAPACITY) {}

  /** An entry for a request that has just arrived (its seq keeps arrival order); add() it once answered. */
  begin(method: string, path: string, query: string, requestId: string, emulatedMs: number): RawEntry {
    return {
      seq: ++this.#seq,
      wallMs: Date.now(),
      emulatedMs,
      startedAt: performance.now(),
      endedAt: 0,
      tenantId: null,
      method,
      path,
      query,
      status: 0,
      requestId,
      sent: undefined,
      answer: undefined,
      answerText: undefined,
    };
  }

  add(entry: RawEntry): void {
    if (this.capacity === 0) return;
    this.#entries.push(entry);
    // Dropped in batches, so a full journal does not move every entry on every request.
    if (this.#entries.length > this.capacity + 64) this.#entries.splice(0, this.#entries.length - this.capacity);
  }

  /** The entries that pass the filter, oldest first; with `limit`, the newest `limit` of them. */
  async list(filter: RequestsFilter = {}): Promise<JournalEntry[]> {
    const kept = this.#entries.length > this.capacity ? this.#entries.slice(-this.capacity) : this.#entries;
    const found = kept
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
    return Promise.all((filter.limit === undefined ? found : found.slice(-filter.limit)).map(view));
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

/** The runtime's one request journal, of the size its options give (`--journal-size`). */
export function requestJournal(rt: Runtime): RequestJournal {
  let journal = journals.get(rt);
  if (!journal) journals.set(rt, (journal = new RequestJournal(rt.options.journalSize ?? JOURNAL_CAPACITY)));
  return journal;
}
