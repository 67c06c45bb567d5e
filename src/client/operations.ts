/**
 * The client's methods made from an operations table (operations/index.ts: the API's, or the
 * control plane's): one per operationId, its method, path, arguments and answer taken from the
 * route's createRoute() config. A call's arguments come in one order: the session or delegate token when the route's
 * security asks for one, the path parameters in the path's order, then the JSON body or the
 * query (optional where the route's is), then the CallOptions.
 */
import type { z } from '@hono/zod-openapi';
import type { Operations } from '../operations/index.js';
import type { Operation } from '../operations/mount.js';
import type { ApiResult, CallOptions, QueryValues } from './transport.js';

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
export type OperationCall<O extends Operation> = (
  ...args: [...Acting<O['config']>, ...PathParams<O['config']['path']>, ...Input<O['config']>, extra?: CallOptions]
) => Promise<ApiResult<Output<O['config']>>>;

/** One method per operation of a table, named by its operationId. */
export type OperationCalls<T extends Record<string, Operation> = Operations> = { [K in keyof T]: OperationCall<T[K]> };

/** The answer of an operation's method once unwrapped: its 2xx body. */
export type Answer<O extends Operation> = Output<O['config']>;

/** What an operation of a table takes as its query, as the method takes it. */
export type QueryOf<O extends Operation> = O['config'] extends { request: { query: infer Q extends z.ZodType } } ? Partial<z.output<Q>> : never;

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
      ...(takes === 'body' ? { body: input } : takes === 'query' ? { query: input as QueryValues } : {}),
    });
  };
}

/** Every operation's method of `table`, named by its operationId. */
export function callsOf<T extends Record<string, Operation>>(table: T, call: Call): OperationCalls<T> {
  const calls: Record<string, unknown> = {};
  for (const [operationId, operation] of Object.entries(table)) calls[operationId] = bind(call, operation);
  return calls as OperationCalls<T>;
}
