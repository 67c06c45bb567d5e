/** What both operations tables are made of: an operation with its method and path as a call sends them, and mount(). */
import type { RouteConfig } from '@hono/zod-openapi';

/** One operation: its config, and its method and path as a call sends them (`GET`, `/apps/{id}`). */
export interface Operation<C extends RouteConfig = RouteConfig> {
  config: C;
  method: string;
  path: string;
}

/** An area's operations mounted at `base` (`/apps`; '' for those at the root of /v1 or of /_emulator). */
export function mount<O extends Record<string, RouteConfig>>(base: string, operations: O): { [K in keyof O]: Operation<O[K]> } {
  const mounted: Record<string, Operation> = {};
  for (const [operationId, config] of Object.entries(operations)) {
    mounted[operationId] = { config, method: config.method.toUpperCase(), path: config.path === '/' ? base : `${base}${config.path}` };
  }
  return mounted as { [K in keyof O]: Operation<O[K]> };
}
