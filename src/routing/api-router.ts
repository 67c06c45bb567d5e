/**
 * The router every area of the API is: an OpenAPIHono whose query and path parameters are
 * checked synchronously where zod can (see ApiRouter).
 */
import { OpenAPIHono, z, type RouteConfig } from '@hono/zod-openapi';
import type { Context, Env, MiddlewareHandler } from 'hono';

/** The error thrown for `issues` found in a request's `target` (json, query, param, header). */
type Invalid = (issues: readonly z.core.$ZodIssue[], target: string) => Error;

/** A request's query as the validator of hono/validator reads it: a name given once is a string, given twice an array. */
function queryOf(c: Context): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  const all = c.req.queries();
  for (const name in all) {
    const values = all[name]!;
    query[name] = values.length === 1 ? values[0]! : values;
  }
  return query;
}

/**
 * The check of a request's query or path parameters against `schema`: the value the validator
 * .openapi() adds would check, the same rules and the same validation_error, but checked at
 * once, not in an async step (zod's async parse, awaited) that made every GET it guarded a
 * chain of promises (routing/chain-router.ts). A schema that needs an async parse still
 * gets one.
 */
function checkNow(target: 'query' | 'param', schema: z.ZodType, invalid: Invalid): MiddlewareHandler {
  const valid = (c: Context, result: z.ZodSafeParseResult<unknown>): void => {
    if (!result.success) throw invalid(result.error.issues, target);
    c.req.addValidatedData(target, result.data as object);
  };
  return (c, next) => {
    const value = target === 'query' ? queryOf(c) : c.req.param();
    let result: z.ZodSafeParseResult<unknown>;
    try {
      result = schema.safeParse(value);
    } catch (error) {
      if (!(error instanceof z.core.$ZodAsyncError)) throw error;
      return schema.safeParseAsync(value).then((later) => {
        valid(c, later);
        return next();
      });
    }
    valid(c, result);
    return next();
  };
}

/**
 * An OpenAPIHono whose openapi() checks a route that takes only a query and path parameters
 * (every GET, most DELETEs) with checkNow(), so that a GET whose middleware all answer at once
 * is answered without a promise (routing/chain-router.ts); a route with a body, headers or a hook
 * of its own goes to @hono/zod-openapi's validators. Both describe the route in the OpenAPI
 * document alike. Its measured gain is on docs/http-layer.md, with chain-router.ts's.
 */
export class ApiRouter<E extends Env> extends OpenAPIHono<E> {
  /** @hono/zod-openapi's openapi(), for the routes it validates. */
  // The field as OpenAPIHono set it: the override below is set after this one.
  readonly #withAsyncValidators = (this as OpenAPIHono<E>).openapi;

  override openapi = ((config: RouteConfig, handler: MiddlewareHandler, hook?: unknown) => {
    const { middleware, hide, ...route } = config;
    const request = route.request;
    if (hook !== undefined || request?.body !== undefined || request?.headers !== undefined || request?.cookies !== undefined) {
      return (this.#withAsyncValidators as (...args: unknown[]) => unknown)(config, handler, hook);
    }
    if (!hide) this.openAPIRegistry.registerPath(route);
    const steps: MiddlewareHandler[] = [
      ...((middleware === undefined ? [] : [middleware].flat()) as MiddlewareHandler[]),
      ...(request?.query === undefined ? [] : [checkNow('query', request.query, this.#invalid)]),
      ...(request?.params === undefined ? [] : [checkNow('param', request.params as z.ZodType, this.#invalid)]),
    ];
    this.on([route.method], [route.path.replaceAll(/\/{(.+?)}/g, '/:$1')], ...steps, handler);
    return this;
  }) as OpenAPIHono<E>['openapi'];

  readonly #invalid: Invalid;

  /** `invalid` makes the error thrown for a request that fails its route's schemas, wherever it was checked. */
  constructor(invalid: Invalid) {
    super({
      defaultHook: (result) => {
        if (!result.success) throw invalid(result.error.issues, result.target);
        return undefined;
      },
    });
    this.#invalid = invalid;
  }
}
