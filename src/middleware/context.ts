/** The Hono environment every router shares: what middleware puts on the context. */
import type { ApiKeyRecord, TenantRecord, UserRecord, UserSessionRecord } from '../store/records.js';

export interface AppEnv {
  Variables: {
    requestId: string;
    tenant: TenantRecord;
    apiKey: ApiKeyRecord;
    /** Set by userSession() on routes that act for a signed-in user (D4). */
    session: UserSessionRecord;
    user: UserRecord;
    /** The answer jsonAnswer() made and its text, so that the request journal keeps the text instead of the answer. */
    jsonAnswered: { answer: Response; text: string } | undefined;
  };
}
