/**
 * GET /v1/openapi.json: the OpenAPI 3.1 document of the /v1 routes, made at request time from
 * their createRoute() declarations, with a tag per area of the spec, the security schemes,
 * the answers every operation shares and the webhook events. GET /_emulator/openapi.json: the
 * control plane's, made the same way from its own declarations.
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../middleware/context.js';
import { OPERATION_DESCRIPTIONS } from './openapi-descriptions.js';
import { HTTP_METHODS, withSharedResponses, type OpenApiObject } from './openapi-responses.js';
import { CONTROL_BASE_PATH, controlOperations } from '../operations/control.js';
import { API_TAGS, CONTROL_TAGS } from '../operations/tags.js';
import { CONTROL_REQUEST_HEADER } from '../schemas/control.js';
import { registerWebhooks } from './openapi-webhooks.js';
import { openApiOperations } from '../operations/openapi.js';

/**
 * The paths of the document carry the base path (`/v1/apps`), and `servers` the URL svc is
 * reached at (an origin, or one with a proxy's prefix; never with /v1):
 * Prism matches a request's path against the document's paths as written and ignores the
 * path of a server URL (by design, see its FAQ), so a document with `servers: /v1` and paths
 * `/apps` needs every path rewritten in front of Prism. Generators and Postman take either.
 */
/** The table's description on every operation that declares none of its own (openapi-descriptions.ts). */
function withDescriptions(doc: OpenApiObject): OpenApiObject {
  for (const item of Object.values(doc.paths ?? {})) {
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (operation === undefined || operation.description !== undefined || operation.operationId === undefined) continue;
      const description = OPERATION_DESCRIPTIONS[operation.operationId];
      if (description !== undefined) operation.description = description;
    }
  }
  return doc;
}

function underBasePath(doc: OpenApiObject, basePath: string): OpenApiObject {
  doc.paths = Object.fromEntries(Object.entries(doc.paths ?? {}).map(([path, item]) => [`${basePath}${path}`, item]));
  return doc;
}

/** What a document says of itself: its title, its version, what it adds to the `info` the two share, its tags. */
interface DocumentInfo {
  title: string;
  version: string;
  description: string;
  tags: ReadonlyArray<{ name: string; description: string }>;
  basePath: string;
  /** The URL svc is reached at (base-url.ts ownUrl()), read at each request: a port picked at listen is known only then. */
  publicUrl: () => string;
}

/**
 * Serves GET /openapi.json on `app`, the document of `routes()` made once (on the first
 * request, when every lazily loaded area is loaded) after `describe` has added what the
 * document has beside the routes; `servers` is the URL svc was told it is reached at
 * (--public-url; default where it listens), so a client made from it calls this emulator, and
 * the same one whatever Host the document was fetched with.
 */
function serveDocument(
  app: OpenAPIHono<AppEnv>,
  info: DocumentInfo,
  routes: () => Promise<OpenAPIHono<AppEnv>>,
  describe: (all: OpenAPIHono<AppEnv>) => OpenAPIHono<AppEnv>,
): void {
  let described: Promise<OpenAPIHono<AppEnv>> | null = null;
  const describedRoutes = (): Promise<OpenAPIHono<AppEnv>> => {
    if (described === null) {
      described = routes().then(describe);
      described.catch(() => (described = null)); // an area that failed to load is tried again by the next request
    }
    return described;
  };
  const document = (all: OpenAPIHono<AppEnv>, server: string): OpenApiObject =>
    underBasePath(
      withDescriptions(
        withSharedResponses(
          all.getOpenAPI31Document({
            openapi: '3.1.0',
            info: {
              title: info.title,
              version: info.version,
              description: info.description,
              license: { name: 'MIT', url: 'https://opensource.org/license/mit' },
              // The emulator answers for itself: its dashboard shows what it holds and what it sent.
              contact: { name: 'svc emulator dashboard', url: `${server}/_emulator/ui` },
            },
            servers: [{ url: server, description: 'The emulator, at the URL it was told it is reached at (svc serve --public-url)' }],
            tags: info.tags.map((tag) => ({ ...tag })),
          }),
        ),
      ),
      info.basePath,
    );
  // Made once per public URL: once every area is loaded, the routes no longer change, and making it
  // takes a tenth of a second (a conformance run reads it a dozen times).
  let made: { routes: OpenAPIHono<AppEnv>; server: string; document: OpenApiObject } | undefined;
  const current = (all: OpenAPIHono<AppEnv>, server: string): OpenApiObject => {
    if (made?.routes !== all || made.server !== server) made = { routes: all, server, document: document(all, server) };
    return made.document;
  };
  // Not doc31(): it answers a generator failure as a bare 500 `{}`; thrown here, it reaches onError (D6).
  app.get('/openapi.json', async (c) => c.json(current(await describedRoutes(), info.publicUrl()), 200));
}

/**
 * Serves GET /openapi.json on the app of `basePath`. The document is made from `routes()`,
 * every route of the app in the order the document lists them (app.ts: most areas are loaded
 * on their first request, so they are all loaded for the first document), with the security
 * schemes, the webhooks and this route's own description added once.
 */
export function registerOpenApiDocument(
  v1: OpenAPIHono<AppEnv>,
  options: { version: string; basePath: string; routes: () => Promise<OpenAPIHono<AppEnv>>; publicUrl: () => string },
): void {
  const info: DocumentInfo = {
    title: 'Wallet and Identity Service API',
    version: options.version,
    description: `Served by svc, the local emulator. Every path starts with the version segment ${options.basePath}: the spec's base URL is the server's URL plus ${options.basePath}.`,
    tags: API_TAGS,
    basePath: options.basePath,
    publicUrl: options.publicUrl,
  };
  serveDocument(v1, info, options.routes, describe);
}

/**
 * Serves GET /openapi.json on the control plane's router (mounted at CONTROL_BASE_PATH), the
 * document of its own routes: their declarations in operations/control*.ts, the guard's
 * bearer scheme, and the shared answers as /v1's document gives them.
 */
export function registerControlDocument(control: OpenAPIHono<AppEnv>, options: { version: string; publicUrl: () => string }): void {
  const info: DocumentInfo = {
    title: 'svc control plane',
    version: options.version,
    description: `The emulator's own API below ${CONTROL_BASE_PATH}: its clock, event log, DLQ, store, faults and what test runs ask of it (docs/control-plane.md). It needs no API key and answers only loopback callers, unless svc serve has --admin-token, whose value others send as a bearer token. svc's own clients send ${CONTROL_REQUEST_HEADER}: 1 with every call that changes something.`,
    tags: CONTROL_TAGS,
    basePath: CONTROL_BASE_PATH,
    publicUrl: options.publicUrl,
  };
  serveDocument(
    control,
    info,
    () => Promise.resolve(control),
    (all) => {
      all.openAPIRegistry.registerComponent('securitySchemes', 'AdminToken', {
        type: 'http',
        scheme: 'bearer',
        description: "The value of svc serve's --admin-token; a loopback caller needs none",
      });
      all.openAPIRegistry.registerPath(controlOperations.getControlOpenApiDocument);
      return all;
    },
  );
}

/** Adds what the document has beside the routes: the security schemes, the webhooks and GET /openapi.json itself. */
function describe(all: OpenAPIHono<AppEnv>): OpenAPIHono<AppEnv> {
  all.openAPIRegistry.registerComponent('securitySchemes', 'ApiKeyAuth', { type: 'apiKey', in: 'header', name: 'x-api-key' });
  all.openAPIRegistry.registerComponent('securitySchemes', 'SessionAuth', { type: 'http', scheme: 'bearer', description: 'User session token st_… (D4)' });
  all.openAPIRegistry.registerComponent('securitySchemes', 'DelegatedSessionAuth', {
    type: 'http',
    scheme: 'bearer',
    description: 'Delegated session token dst_… (D15)',
  });
  registerWebhooks(all);
  // Described with registerPath, served with get(): an openapi() route would type the answer,
  // and the generator's OpenAPIObject is not a JSON type.
  all.openAPIRegistry.registerPath(openApiOperations.getOpenApiDocument);
  return all;
}
