/**
 * The API's base URL from what a person types for `--url` (D1; spec part 1: the base
 * address's last path segment is the version segment `v1`). Every command that takes a
 * deployment's address reads it through here, so `http://127.0.0.1:4010` and
 * `http://127.0.0.1:4010/v1/` mean the same everywhere.
 */

/** The version segment an origin alone is completed with (D1). */
export const API_VERSION_PATH = '/v1';

/** An address that cannot be a base URL; the message says why and shows one that can. */
export class BaseUrlError extends Error {
  constructor(input: string, why: string) {
    super(`"${input}" ${why}; give the deployment's address, such as http://127.0.0.1:4010 or http://127.0.0.1:4010/v1`);
    this.name = 'BaseUrlError';
  }
}

/**
 * The base URL, without a trailing slash: an origin alone gets `/v1`
 * (`http://127.0.0.1:4010/` → `http://127.0.0.1:4010/v1`); a path is kept as given, so a
 * deployment behind a prefix (`https://api.example.com/wallet/v1`) works. Throws
 * BaseUrlError for anything but an absolute http(s) URL, and for a query, fragment or
 * credentials, which a base URL cannot carry.
 */
export function apiBaseUrl(input: string): string {
  const text = input.trim();
  // `localhost:4010` parses as a URL of scheme "localhost": name the usual slip instead.
  if (!/^[a-z][a-z\d+.-]*:\/\//i.test(text)) throw new BaseUrlError(input, 'does not start with http:// or https://');
  if (!URL.canParse(text)) throw new BaseUrlError(input, 'is not a URL');
  const url = new URL(text);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new BaseUrlError(input, `is not an http(s) URL (${url.protocol.slice(0, -1)})`);
  if (url.username !== '' || url.password !== '') throw new BaseUrlError(input, 'carries credentials; give the API key with --api-key instead');
  if (url.search !== '' || url.hash !== '') throw new BaseUrlError(input, 'has a query or fragment, which a base URL cannot carry');
  const path = url.pathname.replace(/\/+$/, '');
  return `${url.origin}${path === '' ? API_VERSION_PATH : path}`;
}

/** A `--public-url` that cannot be one; the message says why and shows one that can. */
export class PublicUrlError extends Error {
  constructor(input: string, why: string) {
    super(`"${input}" ${why}; give the URL others reach svc at, such as https://svc.example.test or https://dev.example.test/svc (no /v1)`);
    this.name = 'PublicUrlError';
  }
}

/**
 * The URL svc is reached at, from what a person types for `svc serve --public-url`: an http(s)
 * origin, with a path when a proxy serves svc below one (`https://dev.example.test/svc`), without
 * a trailing slash. The OpenAPI documents' `servers` names it and their paths carry `/v1`, so it
 * may not end in `/v1` itself (the document would then send clients to `/v1/v1/…`).
 */
export function publicUrl(input: string): string {
  const text = input.trim();
  if (!/^[a-z][a-z\d+.-]*:\/\//i.test(text)) throw new PublicUrlError(input, 'does not start with http:// or https://');
  if (!URL.canParse(text)) throw new PublicUrlError(input, 'is not a URL');
  const url = new URL(text);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new PublicUrlError(input, `is not an http(s) URL (${url.protocol.slice(0, -1)})`);
  if (url.username !== '' || url.password !== '') throw new PublicUrlError(input, 'carries credentials');
  if (url.search !== '' || url.hash !== '') throw new PublicUrlError(input, 'has a query or fragment');
  const path = url.pathname.replace(/\/+$/, '');
  if (path.endsWith(API_VERSION_PATH)) throw new PublicUrlError(input, `ends in ${API_VERSION_PATH}, which svc adds to its paths itself`);
  return `${url.origin}${path}`;
}

/**
 * The URL svc gives others to call it at (the OpenAPI documents' `servers`, a checkout page's
 * link, the start banner): the one it was told (`publicUrl`, from --public-url), else its
 * listening address on loopback, http://127.0.0.1:PORT (4010 until it listens). Never the Host
 * of a request: that names whatever the caller typed, and a document fetched through one name
 * would send every later call there.
 */
export function ownUrl(options: { readonly publicUrl?: string | undefined; readonly port?: number | undefined }): string {
  return options.publicUrl ?? `http://127.0.0.1:${options.port === undefined || options.port === 0 ? 4010 : options.port}`;
}
