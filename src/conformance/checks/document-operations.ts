/**
 * The operations of the target's own OpenAPI document (GET /openapi.json below the base URL),
 * read once per run, as the status checks need them: which statuses each lists, whether it
 * takes the API key or a session, its parameters and whether it takes a body; and, per
 * operation, the requests that provoke a status without changing anything: a concrete path
 * whose ids no deployment holds, a value its query refuses, a body its schema refuses.
 */
import { expect } from '../expect.js';
import type { CheckContext } from '../types.js';

/** A JSON Schema as far as the checks read one. */
interface Schema {
  $ref?: string;
  type?: string;
  enum?: unknown[];
  minimum?: number;
  maxLength?: number;
  format?: string;
}

export interface Parameter {
  name: string;
  required: boolean;
  schema: Schema;
}

/** The session an operation acts under besides the API key: a user's, or a delegated session's (D4, D15). */
export type SessionKind = 'user' | 'delegated';

export interface DocumentOperation {
  operationId: string;
  /** `GET`, `POST`, … */
  method: string;
  /** The path below the base URL, as a template (`/apps/{id}`). */
  path: string;
  /** The statuses the document lists for it. */
  documented: ReadonlySet<number>;
  /** Whether it takes the API key. */
  keyed: boolean;
  session: SessionKind | undefined;
  pathParameters: Parameter[];
  query: Parameter[];
  /** Whether it takes a JSON body, and whether it must have one. */
  body: boolean;
  bodyRequired: boolean;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

interface RawOperation {
  operationId?: string;
  responses?: Record<string, unknown>;
  security?: Array<Record<string, unknown>>;
  parameters?: Array<{ in?: string; name?: string; required?: boolean; schema?: Schema; $ref?: string }>;
  requestBody?: { required?: boolean; content?: Record<string, unknown> };
}

interface RawDocument {
  paths?: Record<string, Record<string, unknown>>;
  security?: Array<Record<string, unknown>>;
  components?: { schemas?: Record<string, Schema>; securitySchemes?: Record<string, { type?: string; in?: string; scheme?: string; name?: string }> };
}

/** The operations of `document`, their paths made relative to `basePath` (the base URL's path, `/v1`). */
export function documentOperations(document: unknown, basePath: string): DocumentOperation[] {
  const doc = document as RawDocument;
  const schemes = doc.components?.securitySchemes ?? {};
  const resolve = (schema: Schema | undefined): Schema => {
    const name = schema?.$ref?.replace('#/components/schemas/', '');
    return (name === undefined ? schema : doc.components?.schemas?.[name]) ?? {};
  };
  const operations: DocumentOperation[] = [];
  for (const [template, item] of Object.entries(doc.paths ?? {})) {
    const path = basePath !== '' && template.startsWith(`${basePath}/`) ? template.slice(basePath.length) : template;
    for (const method of METHODS) {
      const raw = item[method] as RawOperation | undefined;
      if (raw === undefined) continue;
      // The first way of signing in it lists (svc lists one per operation).
      const requirement = Object.keys((raw.security ?? doc.security ?? [])[0] ?? {});
      const kinds = requirement.map((name) => ({ name, scheme: schemes[name] }));
      const bearer = kinds.find(({ scheme }) => scheme?.type === 'http' && scheme.scheme?.toLowerCase() === 'bearer');
      const parameters = (raw.parameters ?? []).map((p) => ({ in: p.in, name: p.name ?? '', required: p.required === true, schema: resolve(p.schema) }));
      operations.push({
        operationId: raw.operationId ?? `${method.toUpperCase()} ${template}`,
        method: method.toUpperCase(),
        path,
        documented: new Set(
          Object.keys(raw.responses ?? {})
            .filter((status) => /^\d{3}$/.test(status))
            .map(Number),
        ),
        keyed: kinds.some(({ scheme }) => scheme?.type === 'apiKey'),
        session: bearer === undefined ? undefined : /delegat/i.test(bearer.name) ? 'delegated' : 'user',
        pathParameters: parameters.filter((p) => p.in === 'path'),
        query: parameters.filter((p) => p.in === 'query'),
        body: raw.requestBody?.content?.['application/json'] !== undefined,
        bodyRequired: raw.requestBody?.required === true,
      });
    }
  }
  return operations;
}

/** The target's document, read once per run and shared by the checks. */
export function targetOperations(ctx: CheckContext): Promise<DocumentOperation[]> {
  return ctx.shared('document-operations', async () => {
    const result = await ctx.client.request('GET', '/openapi.json');
    expect(result.ok, 'the target serves its OpenAPI document (GET /openapi.json)', `answered ${result.status}`, result);
    const operations = documentOperations(result.body, new URL(ctx.client.options.baseUrl).pathname.replace(/\/+$/, ''));
    expect(operations.length > 0, 'the OpenAPI document lists operations', 'no operation under paths', result);
    return operations;
  });
}

/** The operations that list `status`. */
export function listing(operations: readonly DocumentOperation[], status: number): DocumentOperation[] {
  return operations.filter((operation) => operation.documented.has(status));
}

/** The operation's path with every parameter given `id` (an id no deployment holds, or a run's own). */
export function concretePath(operation: DocumentOperation, id: string): string {
  return operation.path.replace(/\{[^}]+\}/g, encodeURIComponent(id));
}

/** An id of the run's own that no deployment holds: paths made with it are the run's alone. */
export function runOwnedId(ctx: CheckContext, label: string): string {
  return `conformance${ctx.runId}${label}`;
}

/** `name` in `operation.method path`, for failure messages. */
export function describe(operation: DocumentOperation): string {
  return `${operation.operationId} (${operation.method} ${operation.path})`;
}

/** A value the parameter's schema refuses, or undefined when the schema refuses none the checks know how to make. */
export function refusedValue(parameter: Parameter): string | undefined {
  const { schema } = parameter;
  if (schema.enum !== undefined) return 'conformance-no-such-value';
  if ((schema.type === 'integer' || schema.type === 'number') && schema.minimum !== undefined) return String(schema.minimum - 1);
  if (schema.type === 'integer' || schema.type === 'number') return 'conformance';
  if (schema.format === 'email') return 'conformance-not-an-email';
  if (schema.maxLength !== undefined) return 'a'.repeat(schema.maxLength + 1);
  return undefined;
}

/** A request the operation's own validation refuses (400): a body that is no object, a path id or a query value its schema refuses, or a required query parameter left out. */
export interface RefusedInput {
  path: string;
  query?: Record<string, string>;
  body?: unknown;
  /** What is wrong with it, for the report. */
  what: string;
}

/** The refused input of `operation`, its other path ids `missing` (one no deployment holds); undefined when it takes none the checks can refuse. */
export function refusedInput(operation: DocumentOperation, missing: string): RefusedInput | undefined {
  const path = concretePath(operation, missing);
  if (operation.body) return { path, body: [], what: 'a body that is no JSON object' };
  for (const parameter of operation.pathParameters) {
    const value = refusedValue(parameter);
    if (value !== undefined)
      return { path: operation.path.replace(`{${parameter.name}}`, value).replace(/\{[^}]+\}/g, missing), what: `path ${parameter.name}` };
  }
  const required = operation.query.find((parameter) => parameter.required);
  if (required !== undefined) return { path, what: `no ${required.name} (required)` };
  for (const parameter of operation.query) {
    const value = refusedValue(parameter);
    if (value !== undefined) return { path, query: { [parameter.name]: value }, what: `query ${parameter.name}=${value.slice(0, 40)}` };
  }
  return undefined;
}

/**
 * A request to the operation that changes nothing whatever it is answered: one its validation
 * refuses, an id no deployment holds, or a read; for an operation under a session, no session.
 * Undefined for an operation that takes no input and writes (removing the custom domain).
 */
export function harmlessCall(operation: DocumentOperation, missing: string): { path: string; query?: Record<string, string>; body?: unknown } | undefined {
  if (operation.session !== undefined) return { path: concretePath(operation, missing) };
  const refused = refusedInput(operation, missing);
  if (refused !== undefined) return refused;
  if (operation.method === 'GET' || operation.pathParameters.length > 0) return { path: concretePath(operation, missing) };
  return undefined;
}
