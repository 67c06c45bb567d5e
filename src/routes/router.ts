/** Every area's router: an OpenAPIHono whose validation failures become `validation_error`. */
import type { OpenAPIHono, z } from '@hono/zod-openapi';
import { ApiError, type ErrorDetail } from '../errors.js';
import type { AppEnv } from '../middleware/context.js';
import { ApiRouter } from '../routing/api-router.js';

const WHERE: Record<string, string> = { json: 'body', query: 'query', param: 'path', header: 'header' };

/** Turns zod issues into the error envelope's `details` (D6): one `{ path, message }` per field. */
export function issueDetails(issues: readonly z.core.$ZodIssue[], target?: string): ErrorDetail[] {
  return issues.map((issue) => ({
    path: issue.path.map(String).join('.') || (target === 'json' ? '(body)' : '(root)'),
    message: issue.message,
    ...(target === undefined ? {} : { in: WHERE[target] ?? target }),
  }));
}

/** The validation_error (D6) for `issues` found in a request's `target` (json, query, param, header). */
export function validationError(issues: readonly z.core.$ZodIssue[], target: string): ApiError {
  return new ApiError('validation_error', `The request ${WHERE[target] ?? target} is not valid`, issueDetails(issues, target));
}

/** A router whose validation failures, in any part of a request, become `validation_error` (D6). */
export function newRouter(): OpenAPIHono<AppEnv> {
  return new ApiRouter<AppEnv>(validationError);
}
