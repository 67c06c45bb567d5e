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
