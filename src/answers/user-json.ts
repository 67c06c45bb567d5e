/**
 * Each user's view as JSON text, made once per record: GET /users/{id} answers it as it is, and a
 * page of users is joined from these texts (json-text.ts). Its gain is on docs/http-layer.md.
 */
import type { UserView } from '../schemas/users.js';
import { userView } from '../services/users.js';
import type { UserRecord } from '../store/records.js';
import { JsonText } from './json-text.js';

/** Records are replaced, never changed in place: a record's text stays right for as long as it is stored. */
const envelopes = new WeakMap<UserRecord, JsonText<{ data: UserView }>>();

export function userEnvelopeText(user: UserRecord): JsonText<{ data: UserView }> {
  let text = envelopes.get(user);
  if (text === undefined) envelopes.set(user, (text = JsonText.envelope(JsonText.of(userView(user)))));
  return text;
}

/** The JSON text of the user's view. */
export function userViewText(user: UserRecord): JsonText<UserView> {
  return JsonText.itemOf(userEnvelopeText(user));
}
