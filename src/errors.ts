/**
 * The one error model of the API (D6): every failure is an ApiError, and one
 * handler in app.ts turns it into the spec's envelope `{ error, code, details }`.
 */
import { z } from '@hono/zod-openapi';

/** Every machine-readable code the service answers, with its HTTP status. */
export const ERROR_CODES = {
  validation_error: 400,
  invalid_json: 400,
  bad_request: 400,
  invalid_code: 400,
  share_mismatch: 400,
  dns_verification_failed: 400,
  webauthn_origin_mismatch: 400,
  webauthn_rp_id_mismatch: 400,
  unknown_credential: 400,
  webauthn_verification_failed: 400,
  counter_not_advanced: 400,
  missing_api_key: 401,
  invalid_api_key: 401,
  missing_session: 401,
  invalid_session: 401,
  invalid_telegram_auth: 401,
  telegram_auth_expired: 401,
  mfa_required: 403,
  permission_denied: 403,
  /** A state-changing call of the control plane or the dashboard that a page of another site could have sent. */
  cross_site_request: 403,
  /** A Host that svc does not answer (DNS rebinding): middleware/host-check.ts. */
  host_not_allowed: 403,
  not_found: 404,
  method_not_allowed: 405,
  request_timeout: 408,
  conflict: 409,
  session_expired: 410,
  challenge_expired: 410,
  gone: 410,
  payload_too_large: 413,
  rate_limited: 429,
  mfa_locked: 429,
  headers_too_large: 431,
  internal_error: 500,
  store_unavailable: 503,
  dns_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

/**
 * One entry of `details`: which field, and what is wrong with it. The schema lives here, with the
 * error model, and the error envelope of src/schemas/common.ts is made of it.
 */
export const ErrorDetail = z.object({ path: z.string().optional(), message: z.string() }).catchall(z.unknown()).openapi('ErrorDetail');
export type ErrorDetail = z.infer<typeof ErrorDetail>;

export class ApiError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  readonly details: ErrorDetail[];
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, message: string, details: ErrorDetail[] = [], headers: Record<string, string> = {}) {
    // An ApiError is an answer, not a bug: its stack is never shown, so skip capturing it.
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = limit;
    this.name = 'ApiError';
    this.code = code;
    this.status = ERROR_CODES[code];
    this.details = details;
    this.headers = headers;
  }

  /** The body of the error envelope. */
  toBody(): { error: string; code: ErrorCode; details: ErrorDetail[] } {
    return { error: this.message, code: this.code, details: this.details };
  }
}

/** 404 for a record that does not exist or belongs to another tenant (never 403: D3). */
export function notFound(what: string, id?: string): ApiError {
  return new ApiError('not_found', id === undefined ? `${what} not found` : `${what} ${id} not found`);
}

export function conflict(message: string, details: ErrorDetail[] = []): ApiError {
  return new ApiError('conflict', message, details);
}

export function validationError(message: string, details: ErrorDetail[]): ApiError {
  return new ApiError('validation_error', message, details);
}

/**
 * One line for an error envelope a server answered (the CLI's and the receiver's view of a
 * failed call): message, code and status, then each detail as `path: message`.
 */
export function describeErrorEnvelope(body: unknown, status: number): string {
  const envelope = body as { error?: unknown; code?: unknown; details?: unknown } | null | undefined;
  if (typeof envelope?.error !== 'string') return `HTTP ${status}`;
  const details = (Array.isArray(envelope.details) ? envelope.details : [])
    .map((detail: { path?: unknown; message?: unknown }) => {
      const message = typeof detail?.message === 'string' ? detail.message : '';
      return typeof detail?.path === 'string' && detail.path !== '' ? `${detail.path}: ${message}` : message;
    })
    .filter((text) => text !== '');
  return `${envelope.error} (${String(envelope.code)}, HTTP ${status})${details.length > 0 ? `: ${details.join('; ')}` : ''}`;
}
