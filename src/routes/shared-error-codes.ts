/**
 * The error codes an operation meets by rule, whatever it does: from the HTTP server (bad_request,
 * request_timeout, headers_too_large), the middleware in front of it (validation_error for a query
 * or path that holds a NUL, invalid_json and payload_too_large where a body is read, the API key
 * and its rate limit, the user's or the delegate's session) and the store (store_unavailable),
 * each with an example of its message as the code that throws it words it. The codes an
 * operation answers of its own are in operations/error-codes.ts.
 */
import type { ErrorCode } from '../errors.js';
import type { ErrorExample } from '../operations/error-codes.js';

/** Codes with their examples. */
export type CodeExamples = Partial<Record<ErrorCode, ErrorExample>>;

/** What the rule reads of an operation. */
export interface RuleInput {
  /** Whether it takes the API key (and so meets its rate limit). */
  keyed: boolean;
  /** The session it acts for: a user's (SessionAuth) or a delegate's (DelegatedSessionAuth). */
  session: 'user' | 'delegated' | null;
  /** For an operation that reads a JSON body: the first field the body needs; undefined for one that reads none. */
  bodyField: string | undefined;
}

const ALWAYS: CodeExamples = {
  bad_request: 'The request is not valid HTTP/1.1',
  request_timeout: 'The request took too long to arrive',
  headers_too_large: 'The request headers are larger than the server accepts (16 KiB)',
  internal_error: 'Something went wrong inside the emulator; the server log has the details',
  store_unavailable: 'the data dir cannot be written: ENOSPC',
};

/** What any operation answers a query parameter that holds a NUL (middleware/body.ts). */
const NUL_IN_QUERY: ErrorExample = {
  message: 'The request query holds text svc does not store (NUL or a lone surrogate): see docs/postgres.md#text-the-stores-refuse',
  details: [{ path: 'search', message: 'holds U+0000 (NUL), which PostgreSQL cannot keep as text: refused on every store', in: 'query' }],
};

const SESSION: Record<'user' | 'delegated', CodeExamples> = {
  user: {
    missing_session: 'Send the user session token as Authorization: Bearer <token>',
    invalid_session: 'The session token is not valid',
    session_expired: {
      message: 'The session has expired; sign in again',
      details: [{ path: 'authorization', message: 'The session expired at 2026-11-21T10:00:00.000Z (emulator clock)' }],
    },
  },
  delegated: {
    missing_session: 'Send the delegated session token as Authorization: Bearer <token>',
    invalid_session: 'The delegated session token is not valid',
    session_expired: 'Delegated session dsn_4f8Qm2xZb7LkP1sT9vRa was revoked',
  },
};

/** The codes an operation meets by rule, with their examples. */
export function ruleCodes(input: RuleInput): CodeExamples {
  const codes: CodeExamples = { ...ALWAYS };
  codes.validation_error =
    input.bodyField === undefined
      ? NUL_IN_QUERY
      : {
          message: 'The request body is not valid',
          details: [{ path: input.bodyField, message: 'Invalid input: expected string, received undefined', in: 'body' }],
        };
  if (input.bodyField !== undefined) {
    codes.invalid_json = {
      message: 'Send the body as JSON with the header Content-Type: application/json',
      details: [{ path: 'content-type', message: 'got text/plain' }],
    };
    codes.payload_too_large = 'The request body is larger than 1048576 bytes (1 MiB)';
  }
  if (input.keyed) {
    codes.missing_api_key = 'Send your API key in the x-api-key header';
    codes.invalid_api_key = 'The API key is not valid';
    codes.rate_limited = {
      message: 'Rate limit of 10 requests per second (bursts of 20) exceeded for this API key; retry after 1 s',
      details: [{ message: 'too many requests', limit: 20, rate: 10, retryAfter: 1 }],
    };
  }
  if (input.session !== null) Object.assign(codes, SESSION[input.session]);
  return codes;
}
