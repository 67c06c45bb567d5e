/**
 * Where each operation of the API holds secrets (docs/testing-with-svc.md#secrets): the paths, in its request
 * body and in its answer of each status, of the values its schemas mark with secret()
 * (schemas/secret.ts). Derived once, from the same declarations the routes, the OpenAPI
 * document and the client are made of (src/operations/), so a field marked there is hidden here
 * with nothing else to edit. Secrets travel in bodies only: no operation marks a path or query
 * parameter (a test holds the operations to that), as a URL is logged and kept by proxies.
 */
import type { RouteConfig } from '@hono/zod-openapi';
import type { z } from '@hono/zod-openapi';
import { API_VERSION_PATH } from '../base-url.js';
import { OPERATIONS } from '../operations/index.js';
import { templateMatcher } from '../path-template.js';
import { secretPaths, type SecretPath } from '../schemas/secret.js';

/** The secret paths of one operation's bodies. */
export interface BodySecrets {
  request: SecretPath[];
  /** By status; an answer of a status the operation does not declare is hidden as any of them would be. */
  responses: ReadonlyMap<number, SecretPath[]>;
  anyResponse: SecretPath[];
}

interface Place {
  operationId: string;
  method: string;
  /** The path as requested, below /v1: `/v1/users/{id}`. */
  path: string;
  secrets: BodySecrets;
}

type Content = Record<string, { schema?: unknown } | undefined> | undefined;

function contentPaths(content: Content): SecretPath[] {
  const paths: SecretPath[] = [];
  for (const media of Object.values(content ?? {})) {
    const schema = media?.schema as z.ZodType | undefined;
    if (schema !== undefined && typeof schema === 'object' && '_zod' in schema) paths.push(...secretPaths(schema));
  }
  return paths;
}

function bodySecrets(config: RouteConfig): BodySecrets {
  const request = contentPaths((config.request?.body as { content?: Content } | undefined)?.content);
  const responses = new Map<number, SecretPath[]>();
  for (const [status, response] of Object.entries(config.responses)) {
    const paths = contentPaths((response as { content?: Content }).content);
    if (paths.length > 0) responses.set(Number(status), paths);
  }
  return { request, responses, anyResponse: [...responses.values()].flat() };
}

let places: Place[] | undefined;
let placeOf: ((method: string, path: string) => Place | undefined) | undefined;

/** Every operation that holds a secret in a body, made on first use (a journal nobody reads costs nothing). */
function secretPlaces(): Place[] {
  places ??= Object.entries(OPERATIONS)
    .map(([operationId, operation]) => ({
      operationId,
      method: operation.method,
      path: `${API_VERSION_PATH}${operation.path}`,
      secrets: bodySecrets(operation.config),
    }))
    .filter((place) => place.secrets.request.length > 0 || place.secrets.anyResponse.length > 0);
  return places;
}

/** The secrets of the operation a request of `method` to `path` (as requested: /v1/…) reached; undefined when it holds none. */
export function secretsOfRequest(method: string, path: string): BodySecrets | undefined {
  placeOf ??= templateMatcher(secretPlaces().map((place) => ({ method: place.method, path: place.path, value: place })));
  return placeOf(method, path)?.secrets;
}

/** The operations that hold secrets, by operationId (for the tests and the docs' list). */
export function operationsWithSecrets(): Array<{ operationId: string; method: string; secrets: BodySecrets }> {
  return secretPlaces().map(({ operationId, method, secrets }) => ({ operationId, method, secrets }));
}

/** The secret paths of what a response of `status` to that request carries. */
export function responseSecrets(secrets: BodySecrets, status: number): SecretPath[] {
  return secrets.responses.get(status) ?? (status >= 400 ? [] : secrets.anyResponse);
}
