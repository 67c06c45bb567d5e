/**
 * Secrets, marked once where their schema is declared (docs/testing-with-svc.md#secrets): `secret(schema)`.
 * Everything that shows or keeps data (the request journal, `svc export`, the exec artefacts)
 * reads the mark from the schemas and hides what is marked, and nothing else.
 *
 * The mark is two things set by one call. `.meta({ 'x-secret': true })` is what the OpenAPI
 * document shows on the property. A no-op check, one shared instance, is what `isSecret()`
 * reads: zod keeps a schema's checks in its definition, which every later `.openapi()`,
 * `.regex()`, `.refine()` or `.meta()` carries along, whereas zod's metadata does not survive
 * `.openapi()` (that makes a new schema from the definition, without its parent); a wrapper
 * (`.optional()`, `.nullable()`, an array) is walked into.
 *
 * Where secrets are is derived from the schemas as JSON paths (`secretPaths()`), not found in
 * values: an answer is never parsed on its way out, a body the schema refused still holds what
 * was sent, and a path names the one field a schema marks, where a field name would also hide
 * every other field of that name (an error's `code` beside a TOTP `code`).
 */
import { z } from '@hono/zod-openapi';

/** What a hidden value reads. */
export const REDACTED = '[redacted]';

/** The OpenAPI extension a marked property carries in the document. */
export const SECRET_EXTENSION = 'x-secret';

const SECRET_MARK = z.check(() => {});

/** `schema`, marked as holding a secret: hidden wherever data is shown or kept, `x-secret: true` in the OpenAPI document. */
export function secret<T extends z.ZodType>(schema: T): T {
  return schema.check(SECRET_MARK).meta({ [SECRET_EXTENSION]: true });
}

/** Whether this schema itself (not a wrapper around it) is marked by secret(). */
export function isSecret(schema: z.ZodType): boolean {
  const checks = (schema._zod.def as { checks?: readonly unknown[] }).checks;
  return checks !== undefined && checks.includes(SECRET_MARK);
}

/** One step of a path into a JSON value: a property name, or `*` for every item of an array or value of a record. */
export type SecretPath = readonly string[];
export const ANY = '*';

type Def = z.core.$ZodTypeDef & Record<string, unknown>;

/** The paths of every marked value inside `schema`; `[]` (the empty path) when the whole value is marked. */
export function secretPaths(schema: z.ZodType): SecretPath[] {
  const found: SecretPath[] = [];
  const walk = (node: z.ZodType, path: string[], seen: ReadonlySet<z.ZodType>): void => {
    if (isSecret(node)) {
      found.push(path);
      return;
    }
    if (seen.has(node)) return;
    const inner = new Set(seen).add(node);
    const def = node._zod.def as Def;
    const child = (next: unknown, step?: string): void => walk(next as z.ZodType, step === undefined ? path : [...path, step], inner);
    switch (def.type) {
      case 'object':
        for (const [name, field] of Object.entries(def['shape'] as Record<string, z.ZodType>)) child(field, name);
        if (def['catchall'] !== undefined) child(def['catchall'], ANY);
        break;
      case 'array':
        child(def['element'], ANY);
        break;
      case 'record':
        child(def['valueType'], ANY);
        break;
      case 'tuple':
        for (const item of def['items'] as z.ZodType[]) child(item, ANY);
        if (def['rest'] !== null && def['rest'] !== undefined) child(def['rest'], ANY);
        break;
      case 'union':
        for (const option of def['options'] as z.ZodType[]) child(option);
        break;
      case 'intersection':
        child(def['left']);
        child(def['right']);
        break;
      case 'pipe':
        child(def['in']);
        child(def['out']);
        break;
      case 'optional':
      case 'nullable':
      case 'default':
      case 'prefault':
      case 'nonoptional':
      case 'readonly':
      case 'catch':
        child(def['innerType']);
        break;
      case 'lazy':
        child((def['getter'] as () => z.ZodType)());
        break;
      default:
        break;
    }
  };
  walk(schema, [], new Set());
  // The same field reached through two options of a union is one path.
  const unique = new Map(found.map((path) => [JSON.stringify(path), path]));
  return [...unique.values()];
}

/** How deep hideSecrets() follows a path; deeper values are left as they are (no schema marks that deep). */
const MAX_DEPTH = 64;

function hideAt(value: unknown, path: SecretPath, at: number): unknown {
  if (value === null || value === undefined) return value;
  if (at === path.length) return REDACTED;
  if (typeof value !== 'object' || at >= MAX_DEPTH) return value;
  const step = path[at]!;
  if (Array.isArray(value)) return step === ANY ? value.map((item) => hideAt(item, path, at + 1)) : value;
  const record = value as Record<string, unknown>;
  if (step !== ANY) {
    if (!Object.hasOwn(record, step)) return value;
    return { ...record, [step]: hideAt(record[step], path, at + 1) };
  }
  return Object.fromEntries(Object.entries(record).map(([name, field]) => [name, hideAt(field, path, at + 1)]));
}

/**
 * A copy of a JSON value with what lies at each path replaced by REDACTED (null stays null, so
 * "no value" still reads as such); the rest is the same value, untouched. The value need not
 * match the schema the paths came from: a path that leads nowhere in it hides nothing.
 */
export function hideSecrets<T>(value: T, paths: readonly SecretPath[]): T {
  let hidden: unknown = value;
  for (const path of paths) hidden = hideAt(hidden, path, 0);
  return hidden as T;
}
