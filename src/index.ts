/**
 * The package entry of `svc`: the typed client, the emulator (to start in-process or mount),
 * the webhook signature functions, the zod schemas of every area, and the conformance suite.
 */
export { createClient, ServiceError, unwrap } from './client/index.js';
export type {
  ApiResult,
  CallOptions,
  Client,
  ClientOptions,
  Envelope,
  ErrorBody,
  Failure,
  FetchAnswer,
  FetchLike,
  Page,
  SentRequest,
  Success,
} from './client/index.js';

export { createRuntime, startEmulator, DEFAULT_HOST, DEFAULT_PORT } from './emulator.js';
export type { Emulator, EmulatorOptions, SeededKey } from './emulator.js';
export { createApp, API_BASE_PATH } from './app.js';
export type { AppOptions } from './app.js';
export type { Runtime, RuntimeOptions } from './runtime.js';

export {
  computeSignature,
  signDelivery,
  verifySignature,
  WebhookVerificationError,
  SIGNATURE_TOLERANCE_SECONDS,
  SIGNATURE_PREFIX,
  SIGNATURE_HEADER,
  TIMESTAMP_HEADER,
  EVENT_ID_HEADER,
} from './webhooks/signature.js';
export type { VerificationReason, VerifyInput } from './webhooks/signature.js';

export { CATALOGUE as conformanceChecks } from './conformance/catalogue.js';
export { runSuite as runConformance } from './conformance/runner.js';
export { preflight as conformancePreflight } from './conformance/preflight.js';
export { selectChecks as selectConformanceChecks } from './conformance/select.js';
export type { Check, CheckContext, CheckResult, Profile } from './conformance/types.js';
export type { RunReport } from './conformance/runner.js';

import * as analytics from './schemas/analytics.js';
import * as apiKeys from './schemas/api-keys.js';
import * as apps from './schemas/apps.js';
import * as auth from './schemas/auth.js';
import * as billing from './schemas/billing.js';
import * as common from './schemas/common.js';
import * as control from './schemas/control.js';
import * as customDomains from './schemas/custom-domains.js';
import * as delegatedSessions from './schemas/delegated-sessions.js';
import * as guests from './schemas/guests.js';
import * as health from './schemas/health.js';
import * as mfa from './schemas/mfa.js';
import * as mpc from './schemas/mpc.js';
import * as passkeys from './schemas/passkeys.js';
import * as telegram from './schemas/telegram.js';
import * as tenant from './schemas/tenant.js';
import * as users from './schemas/users.js';
import * as wallets from './schemas/wallets.js';
import * as webhooks from './schemas/webhooks.js';

/** The zod schemas of every area, one namespace each (names repeat across areas). */
export const schemas = {
  analytics,
  apiKeys,
  apps,
  auth,
  billing,
  common,
  control,
  customDomains,
  delegatedSessions,
  guests,
  health,
  mfa,
  mpc,
  passkeys,
  telegram,
  tenant,
  users,
  wallets,
  webhooks,
} as const;
