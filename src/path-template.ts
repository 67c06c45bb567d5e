/**
 * Which operation of an OpenAPI document a request reached, by its method and path: each path
 * template (`/users/{id}`) as a pattern where `{name}` is one segment. Where two templates match
 * one path, the more literal wins (`/users/me/wallet` over `/users/{id}`), as a router would.
 * Used by the request journal (which secrets a body holds), the conformance suite's coverage and
 * the app's answer to a method a path does not have (405 with `Allow`, app-base.ts).
 */

export interface PathTemplate<T> {
  method: string;
  path: string;
  value: T;
}

/** `path` as a pattern; `slash`: a trailing slash is taken too. */
function templatePattern(path: string, slash = true): RegExp {
  const source = path
    .split(/(\{[^}]+\})/)
    .map((part) => (part.startsWith('{') ? '[^/]+' : part.replace(/[.*+?^$()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}${slash ? '/?' : ''}$`);
}

const literalLength = (path: string): number => path.replace(/\{[^}]+\}/g, '').length;

/** A look-up from a request's method (upper case) and path to the value of the template it matches. */
export function templateMatcher<T>(templates: readonly PathTemplate<T>[]): (method: string, path: string) => T | undefined {
  const matchers = templates
    .map((template) => ({ ...template, pattern: templatePattern(template.path) }))
    .sort((a, b) => literalLength(b.path) - literalLength(a.path));
  return (method, path) => matchers.find((matcher) => matcher.method === method && matcher.pattern.test(path))?.value;
}

/**
 * A look-up from a request path to the methods of every template it matches as the router does
 * (no trailing slash: the app's router is strict), in the order given; empty when none matches.
 * Every template that matches counts, the less literal too: `GET /guests/cleanup` reaches
 * `GET /guests/{id}`, so `/guests/cleanup` has GET as well as its own POST.
 */
export function methodsOfPath(templates: readonly Omit<PathTemplate<unknown>, 'value'>[]): (path: string) => string[] {
  const byPath = new Map<string, string[]>();
  for (const { method, path } of templates) {
    const methods = byPath.get(path);
    if (methods === undefined) byPath.set(path, [method]);
    else if (!methods.includes(method)) methods.push(method);
  }
  const matchers = [...byPath].map(([path, methods]) => ({ pattern: templatePattern(path, false), methods }));
  return (path) => {
    const found: string[] = [];
    for (const { pattern, methods } of matchers) if (pattern.test(path)) for (const method of methods) if (!found.includes(method)) found.push(method);
    return found;
  };
}
