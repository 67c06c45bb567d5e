/** The OpenAPI document's tags: one per area of the spec, which every route declares, and one for the document. */

/** One tag per area of the spec (part 1), in the spec's order, and one for this document; every operation carries one. */
export const API_TAGS = [
  { name: 'Apps', description: 'Applications of the tenant: create, list (paginated), read, update and delete.' },
  { name: 'Users', description: "Users of the tenant, each with a Canton party; the signed-in user's wallet under /users/me/wallet." },
  { name: 'API keys', description: "Keys that call the API for the tenant. A key's value is answered once, when it is created." },
  { name: 'Webhooks', description: 'HTTP endpoints that receive signed event deliveries; test events and the deliveries of each endpoint.' },
  { name: 'Passkey/WebAuthn', description: 'Sign-up and sign-in with passkeys: a challenge, then its verification.' },
  { name: 'Telegram', description: "Sign-in with Telegram Login Widget or Mini App data, and the widget's bot configuration." },
  { name: 'Guest sessions', description: 'Guest users signed in without credentials: create, read, convert into a user, expire one or many.' },
  { name: 'Delegated sessions', description: 'Limited sessions a user grants to run ledger commands and queries for its wallet.' },
  { name: 'MFA', description: 'TOTP multi-factor authentication of the signed-in user: setup, challenge, verify, status, disable.' },
  { name: 'MPC key management', description: "Shamir shares of a wallet's key: store, retrieve and delete them, recover the key." },
  { name: 'Custom domains', description: "The tenant's own domain, proven with a DNS TXT record." },
  { name: 'Tenant', description: 'The tenant the API key acts for, and its settings.' },
  { name: 'Analytics', description: 'Usage statistics of the tenant over 7, 30 or 90 days.' },
  { name: 'Billing', description: "Checkout and billing portal sessions at the payment provider, and this month's usage." },
  { name: 'Health', description: 'Liveness and readiness probes; they need no API key.' },
  { name: 'OpenAPI', description: 'This document; it needs no API key.' },
] as const;

export type ApiTag = (typeof API_TAGS)[number]['name'];

/** The control plane's document's tags (`/_emulator/openapi.json`): one per topic; every control operation carries one. */
export const CONTROL_TAGS = [
  { name: 'Emulator', description: "The emulator's state (its store, its clock, what waits on the clock) and this document." },
  { name: 'Clock', description: 'The emulator clock that TOTP codes, TTLs and webhook retries are checked against (docs/design.md#d10).' },
  { name: 'Events and deliveries', description: 'The event log, every delivery across tenants, the DLQ, retries and redeliveries (docs/design.md#d8).' },
  { name: 'Store', description: 'Reset to the fixture, seed a fixture, record a sample event, export the store as a fixture.' },
  { name: 'Faults', description: 'Make the next matching /v1 requests answer an error status, or wait, or both (docs/design.md#d11).' },
  { name: 'Test tenants', description: 'A throwaway tenant per test worker: made from a fixture tenant, reset alone, removed.' },
  { name: 'Request journal', description: 'The /v1 requests the emulator answered, with their bodies (secrets redacted).' },
  {
    name: 'Snapshots',
    description: 'The whole state (records, deliveries and their retries, the clock) kept under a name and put back (docs/control-plane.md#snapshots).',
  },
  { name: 'DNS', description: 'Emulated TXT records that custom-domain verification reads before it asks a resolver (docs/control-plane.md#emulated-dns).' },
] as const;

export type ControlTag = (typeof CONTROL_TAGS)[number]['name'];
