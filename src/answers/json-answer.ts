/**
 * Answers a JsonText (json-text.ts) as it is, through c.body(), under the response type c.json()
 * would give the document it encodes: a route handler that answers so is checked against its
 * route's response schema as one that calls c.json() is.
 */
import type { Context, TypedResponse } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { JSONParsed } from 'hono/utils/types';
import type { JsonText } from './json-text.js';
import type { AppEnv } from '../middleware/context.js';
import { JSON_CONTENT_TYPE } from '../middleware/response.js';

/** What c.json(document, status) answers. */
export type JsonAnswer<T, S extends ContentfulStatusCode> = Response & TypedResponse<JSONParsed<T>, S, 'json'>;

export function jsonAnswer<T, S extends ContentfulStatusCode>(c: Context<AppEnv>, body: JsonText<T>, status: S): JsonAnswer<T, S> {
  const response: Response = c.body(body.text, status, { 'content-type': JSON_CONTENT_TYPE });
  // The journal keeps this text, not the answer: an answer kept alive with its Headers is copied
  // by each young-generation collection until it is old, a text made ahead is kept anyway.
  c.set('jsonAnswered', { answer: response, text: body.text });
  // As in Hono's c.json(): the type of the text's document is the answer's, given by the JsonText.
  return response as JsonAnswer<T, S>;
}
