/**
 * Request bodies (D6): at most 1 MiB (413 payload_too_large), JSON only
 * (400 invalid_json), parsed once here so the validators reuse the parsed value. A string no
 * store can hold (NUL, a lone surrogate: store/text.ts) in the body, a query or a path is
 * refused here, for every route and both stores alike (400 validation_error naming it).
 */
import type { IncomingMessage } from 'node:http';
import type { Context, HonoRequest, MiddlewareHandler, Next } from 'hono';
import { ApiError } from '../errors.js';
import { findUnheldText, mayHoldUnheldText, unheldReason, type UnheldText } from '../store/text.js';

export const MAX_BODY_BYTES = 1024 * 1024;
const JSON_MEDIA_TYPE = /^application\/([\w.-]+\+)?json$/i;

/** Whether a Content-Type header names JSON (`application/json` or `application/…+json`, any parameters): the bodies read here. */
export function isJsonContentType(header: string | undefined): boolean {
  return JSON_MEDIA_TYPE.test((header ?? '').split(';')[0]!.trim());
}
const METHODS_WITH_BODY = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function tooLarge(): ApiError {
  return new ApiError('payload_too_large', `The request body is larger than ${MAX_BODY_BYTES} bytes (1 MiB)`);
}

/**
 * Reads the body up to the limit. With a Content-Length (already checked against the limit,
 * and held to by Node's HTTP parser) the whole body is read at once on @hono/node-server's
 * fast path; a chunked body is streamed and cut off as soon as it passes the limit.
 */
async function readLimited(request: Request, declaredLength: boolean): Promise<Uint8Array> {
  if (declaredLength) return new Uint8Array(await request.arrayBuffer());
  if (!request.body) return new Uint8Array();
  const reader: ReadableStreamDefaultReader<Uint8Array> = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

export function jsonBody(): MiddlewareHandler {
  // Not async: a GET goes on without a promise of its own.
  return (c, next) => {
    // The only way a NUL reaches a query or a path; a lone surrogate cannot (its percent-encoded
    // UTF-8 is invalid and stays as sent). One search of the URL, then the parameters when found.
    if (c.req.url.includes('%00')) refuseUnheldParameters(c);
    return METHODS_WITH_BODY.has(c.req.method) ? readJsonBody(c, next) : next();
  };
}

function refuse(found: UnheldText[], where: 'body' | 'query' | 'path'): never {
  throw new ApiError(
    'validation_error',
    `The request ${where} holds text svc does not store (NUL or a lone surrogate): see docs/postgres.md#text-the-stores-refuse`,
    found.map((detail) => ({ ...detail, in: where })),
  );
}

/** Refuses a query parameter or a path segment that decodes to a NUL, naming it (a path segment by its route's parameter when known). */
function refuseUnheldParameters(c: Context): void {
  const url = new URL(c.req.url);
  const query: UnheldText[] = [];
  for (const [key, value] of url.searchParams) {
    const reason = unheldReason(key) ?? unheldReason(value);
    if (reason !== null) query.push({ path: unheldReason(key) === null ? key : JSON.stringify(key).slice(1, -1), message: reason });
  }
  if (query.length > 0) refuse(query, 'query');
  const segments = url.pathname.split('/');
  const routes = c.req.matchedRoutes.map((route) => route.path.split('/'));
  const path: UnheldText[] = [];
  segments.forEach((segment, index) => {
    const reason = segment.includes('%00') ? unheldReason(decodeSegment(segment)) : null;
    if (reason === null) return;
    const named = routes.map((parts) => parts[index]).find((part) => part?.startsWith(':'));
    path.push({ path: named === undefined ? `(segment ${index})` : named.slice(1), message: reason });
  });
  if (path.length > 0) refuse(path, 'path');
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment.replaceAll('%00', '\u0000');
  }
}

async function readJsonBody(c: Context, next: Next): Promise<void> {
  const length = c.req.header('content-length');
  const declared = length !== undefined && /^\d+$/.test(length);
  if (declared && Number(length) > MAX_BODY_BYTES) throw tooLarge();
  const bytes = await readLimited(c.req.raw, declared);
  const mediaType = (c.req.header('content-type') ?? '').split(';')[0]!.trim();
  if (bytes.byteLength === 0) {
    // An empty body reads as {} so that bodiless actions (POST /guests) need no ceremony;
    // without a Content-Type it stays empty, so the validators see "no body" rather than "{}".
    cacheText(c.req.bodyCache, JSON_MEDIA_TYPE.test(mediaType) ? '{}' : '');
    return next();
  }
  if (!JSON_MEDIA_TYPE.test(mediaType)) {
    throw new ApiError('invalid_json', 'Send the body as JSON with the header Content-Type: application/json', [
      { path: 'content-type', message: mediaType ? `got ${mediaType}` : 'missing' },
    ]);
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new ApiError('invalid_json', 'The request body is not valid UTF-8');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new ApiError('invalid_json', `The request body is not valid JSON: ${(error as Error).message}`);
  }
  if (mayHoldUnheldText(text)) {
    const found = findUnheldText(parsed);
    if (found.length > 0) refuse(found, 'body');
  }
  cacheText(c.req.bodyCache, text);
  return next();
}

/** Hono keeps body promises in bodyCache (its type says values); c.req.json() parses this text. */
function cacheText(cache: object, text: string): void {
  (cache as { text?: Promise<string> }).text = Promise.resolve(text);
}

/**
 * A body sent with GET or HEAD (allowed by HTTP, meaningless to every route here) is read and
 * dropped before the request is answered, within the same 1 MiB limit. Left unread, it stays
 * in the socket: Node closes a `Connection: close` socket as soon as the answer is written,
 * and closing a socket with bytes unread makes the kernel send a reset, which can cut off the
 * answer still on its way to the client (GET /v1/openapi.json, 160 KB, sent with a 200 KB
 * body, was cut off every time). @hono/node-server drains the unread bodies of the other
 * methods itself. Served without Node (app.request() in tests) there is no socket to mind.
 */
export function droppedBody(): MiddlewareHandler {
  // Not async: a GET without a body (nearly all) goes on without a promise of its own.
  return (c, next) => {
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return next();
    const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
    if (incoming === undefined || !hasBody(incoming)) return next();
    return drop(incoming).then(() => next());
  };
}

function hasBody(incoming: IncomingMessage): boolean {
  const length = incoming.headers['content-length'];
  return incoming.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * Reads the body to its end and keeps none of it; refuses it (413) once it passes the limit.
 * A client that hangs up mid-body gets no answer either way: the request is let go as if its
 * body had ended, rather than failed (which would log an error for the client's hang-up).
 */
function drop(incoming: IncomingMessage): Promise<void> {
  if (Number(incoming.headers['content-length'] ?? 0) > MAX_BODY_BYTES) return Promise.reject(tooLarge());
  if (incoming.readableEnded || incoming.destroyed) return Promise.resolve();
  return new Promise((resolve, reject) => {
    let size = 0;
    const done = (error?: ApiError): void => {
      incoming.off('data', onData).off('end', onEnd).off('error', onEnd).off('close', onEnd);
      if (error) reject(error);
      else resolve();
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.byteLength;
      if (size > MAX_BODY_BYTES) done(tooLarge());
    };
    const onEnd = (): void => done();
    incoming.on('data', onData).once('end', onEnd).once('error', onEnd).once('close', onEnd);
  });
}

/**
 * A form body (the dashboard's and the payment provider's pages). A body that claims to be a
 * form but does not parse (a broken multipart) is 400 bad_request, never a 500; a field that
 * holds a NUL is 400 validation_error, as in a JSON body.
 */
export async function formBody(request: HonoRequest): Promise<Record<string, string | File>> {
  let form: Record<string, string | File>;
  try {
    form = await request.parseBody<Record<string, string | File>>();
  } catch {
    throw new ApiError('bad_request', 'The form body cannot be read; send it as application/x-www-form-urlencoded or multipart/form-data');
  }
  const found = findUnheldText(Object.fromEntries(Object.entries(form).filter((entry): entry is [string, string] => typeof entry[1] === 'string')));
  if (found.length > 0) refuse(found, 'body');
  return form;
}
