/**
 * undici, loaded on first use. It is a quarter of the bundle, and `svc serve` needs it only
 * once a webhook is delivered, so it is kept out of the start (it slows a cold start).
 */
export type Undici = typeof import('undici');

let loading: Promise<Undici> | undefined;

export function loadUndici(): Promise<Undici> {
  // A CommonJS package: its module.exports is the default export both in Node's ESM loader
  // and in the bundle, where the named exports of a dynamic import are not filled in.
  return (loading ??= import('undici').then((module) => (module as { default?: Undici }).default ?? module));
}
