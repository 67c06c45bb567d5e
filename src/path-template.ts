/**
 * Which operation of an OpenAPI document a request reached, by its method and path: each path
 * template (`/users/{id}`) as a pattern where `{name}` is one segment. Where two templates match
 * one path, the more literal wins (`/users/me/wallet` over `/users/{id}`), as a router would.
 * Used by the request journal (which secrets a body holds) and the conformance suite's coverage.
 */

export interface PathTemplate<T> {
  method: string;
  path: string;
  value: T;
}

function templatePattern(path: string): RegExp {
  const source = path
    .split(/(\{[^}]+\})/)
    .map((part) => (part.startsWith('{') ? '[^/]+' : part.replace(/[.*+?^$()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}/?$`);
}

const literalLength = (path: string): number => path.replace(/\{[^}]+\}/g, '').length;

/** A look-up from a request's method (upper case) and path to the value of the template it matches. */
export function templateMatcher<T>(templates: readonly PathTemplate<T>[]): (method: string, path: string) => T | undefined {
  const matchers = templates
    .map((template) => ({ ...template, pattern: templatePattern(template.path) }))
    .sort((a, b) => literalLength(b.path) - literalLength(a.path));
  return (method, path) => matchers.find((matcher) => matcher.method === method && matcher.pattern.test(path))?.value;
}
