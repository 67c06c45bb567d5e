/**
 * The client's methods made from the operations table (operations/index.ts): one per
 * operationId, its method, path, arguments and answer taken from the route's createRoute()
 * config. A call's arguments come in one order: the session or delegate token when the route's
 * security asks for one, the path parameters in the path's order, then the JSON body or the
 * query (optional where the route's is), then the CallOptions.
 */
import type { z } from '@hono/zod-openapi';
import { OPERATIONS, type OperationId, type Operations, type Operation } from '../operations/index.js';
import type { ApiResult, CallOptions } from './transport.js';

type Config<K extends OperationId> = Operations[K]['config'];

/** The schema of a body or response given as `application/json`. */
type JsonSchema<T> = T extends { content: { 'application/json': { schema: infer S extends z.ZodType } } } ? S : never;

/** The token a call acts with: the delegated session's, the user's session, or none (the API key alone). */
type Acting<C> = C extends { security: Array<infer S> }
  ? [S] extends [never]
    ? []
    : S extends { DelegatedSessionAuth: unknown }
      ? [token: string]
      : S extends { SessionAuth: unknown }
        ? [session: string]
        : []
  : [];

/** One string per `{param}` of the route's path, in order. */
type PathParams<P> = P extends `${string}{${string}}${infer Rest}` ? [string, ...PathParams<Rest>] : [];

/** The JSON body (required or not, as the route says), else the query (its values as sent, before they are parsed from text), else nothing. */
type Input<C> = C extends { request: { body: infer B } }
  ? B extends { required: true }
    ? [body: z.input<JsonSchema<B>>]
    : [body?: z.input<JsonSchema<B>>]
  : C extends { request: { query: infer Q extends z.ZodType } }
    ? [query?: Partial<z.output<Q>>]
    : [];

/** The body of the route's 2xx answer (200, else 201). */
type Output<C> = C extends { responses: infer R } ? z.infer<JsonSchema<R extends { 200: infer A } ? A : R extends { 201: infer A } ? A : never>> : never;

/** The method of one operation. */
export type OperationCall<K extends OperationId> = (
  ...args: [...Acting<Config<K>>, ...PathParams<Config<K>['path']>, ...Input<Config<K>>, extra?: CallOptions]
) => Promise<ApiResult<Output<Config<K>>>>;

export type OperationCalls = { [K in OperationId]: OperationCall<K> };

type Call = <T>(method: string, path: string, extra?: CallOptions) => Promise<ApiResult<T>>;

/** Whom the route's security names beside the key: the delegate or the user's session. */
function actingOf(operation: Operation): 'token' | null {
  const schemes = (operation.config.security ?? []).flatMap((requirement) => Object.keys(requirement));
  return schemes.includes('DelegatedSessionAuth') || schemes.includes('SessionAuth') ? 'token' : null;
}

/** The method that sends `operation` through `call`, reading its arguments in the order above. */
function bind(call: Call, operation: Operation): (...args: unknown[]) => Promise<ApiResult<unknown>> {
  const acting = actingOf(operation);
  const request = operation.config.request;
  const takes = request?.body !== undefined ? 'body' : request?.query !== undefined ? 'query' : null;
  return (...args) => {
    let next = 0;
    const bearer = acting === null ? undefined : (args[next++] as string);
    const path = operation.path.replace(/\{\w+\}/g, () => encodeURIComponent(String(args[next++])));
    const input = takes === null ? undefined : (args[next++] ?? {});
    const extra = (args[next] ?? {}) as CallOptions;
    return call(operation.method, path, {
      ...extra,
      ...(bearer === undefined ? {} : { bearer }),
      ...(takes === null ? {} : { [takes]: input }),
    });
  };
}

/** Every operation's method, named by its operationId. */
export function operationCalls(call: Call): OperationCalls {
  const calls: Record<string, unknown> = {};
  for (const [operationId, operation] of Object.entries(OPERATIONS)) calls[operationId] = bind(call, operation);
  return calls as OperationCalls;
}
