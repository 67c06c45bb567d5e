/**
 * What a check asserts, and how it says what broke: every failure names the rule (the spec's
 * words) and shows the exchange that broke it — method, path, status and a trimmed body —
 * so a red run reads as a bug report.
 */
import type { z } from '@hono/zod-openapi';
import type { ApiResult, SentRequest } from '../client/index.js';

const BODY_LIMIT = 600;

/** A check found the target breaking a rule. */
export class CheckFailure extends Error {
  constructor(
    readonly rule: string,
    message: string,
    readonly exchange?: ApiResult<unknown>,
  ) {
    super(`${rule}: ${message}${exchange === undefined ? '' : `\n${describeExchange(exchange)}`}`);
    this.name = 'CheckFailure';
  }
}

/** The target cannot be checked this way (not a failure): the reason is reported. */
export class CheckSkip extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'CheckSkip';
  }
}

/** The target did not answer (network error or timeout): the run ends with exit 2. */
export class TargetUnreachable extends Error {
  /** Whether the call was abandoned for its timeout (the target took too long), not refused or cut. */
  readonly timedOut: boolean;

  constructor(
    readonly request: Pick<SentRequest, 'method' | 'url'>,
    cause: unknown,
    /** How the request went (its connection, what was retried), after the error. */
    detail?: string,
  ) {
    super(`${request.method} ${request.url}: ${describeNetworkError(cause)}${detail === undefined ? '' : ` ${detail}`}`);
    this.name = 'TargetUnreachable';
    this.timedOut = isTimeout(cause);
  }
}

function isTimeout(error: unknown): boolean {
  const { name } = error as { name?: unknown };
  return name === 'TimeoutError' || name === 'AbortError';
}

export function describeNetworkError(error: unknown): string {
  const err = error as NodeJS.ErrnoException & { cause?: NodeJS.ErrnoException };
  if (isTimeout(err)) return 'no answer within the timeout';
  const code = err.cause?.code ?? err.code;
  return code ? `${code} (${err.cause?.message ?? err.message})` : (err.cause?.message ?? err.message);
}

export function trim(text: string, limit = BODY_LIMIT): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > limit ? `${flat.slice(0, limit)}… (${flat.length} chars)` : flat;
}

export function describeExchange(result: ApiResult<unknown>): string {
  const sent = result.request.body === undefined ? '' : ` ${trim(result.request.body, 200)}`;
  return `    → ${result.request.method} ${result.request.path}${sent}\n    ← ${result.status} ${trim(result.text) || '(empty body)'}`;
}

export function fail(rule: string, message: string, exchange?: ApiResult<unknown>): never {
  throw new CheckFailure(rule, message, exchange);
}

export function expect(condition: unknown, rule: string, message: string, exchange?: ApiResult<unknown>): asserts condition {
  if (!condition) fail(rule, message, exchange);
}

/** The status is one of `expected`. */
export function expectStatus(result: ApiResult<unknown>, expected: number | readonly number[], rule: string): void {
  const allowed = typeof expected === 'number' ? [expected] : expected;
  if (!allowed.includes(result.status)) fail(rule, `expected HTTP ${allowed.join(' or ')}, got ${result.status}`, result);
}

/** Readable zod issues: `data.items.0.id: an id starting with app_`. */
export function describeIssues(error: z.ZodError, limit = 4): string {
  const lines = error.issues.slice(0, limit).map((issue) => `${issue.path.map(String).join('.') || '(body)'}: ${issue.message}`);
  if (error.issues.length > limit) lines.push(`… ${error.issues.length - limit} more`);
  return lines.join('; ');
}

/** The body matches `schema`; answers the parsed value. */
export function expectShape<S extends z.ZodType>(result: ApiResult<unknown>, schema: S, rule: string): z.infer<S> {
  if (result.body === undefined) fail(rule, 'the answer is not JSON', result);
  const parsed = schema.safeParse(result.body);
  if (!parsed.success) fail(rule, describeIssues(parsed.error), result);
  return parsed.data;
}

/** The answer declares JSON (spec part 4: bodies are JSON). Parameters and case do not matter. */
export function expectJsonContentType(result: ApiResult<unknown>, rule: string): void {
  const type = (result.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  expect(/^application\/([\w.-]+\+)?json$/.test(type), rule, `Content-Type is "${result.headers.get('content-type') ?? '(none)'}", not JSON`, result);
}
