/** The Hono environment every router shares: what middleware puts on the context. */
import type { ApiKeyRecord, TenantRecord } from '../store/records.js';

export interface AppEnv {
  Variables: {
    requestId: string;
    tenant: TenantRecord;
    apiKey: ApiKeyRecord;
  };
}
