/**
 * The control plane's emulated DNS (docs/control-plane.md#emulated-dns), below `/_emulator/dns`:
 * TXT records that custom-domain verification (D13) reads before it asks a resolver, so a test
 * or a conformance run can publish the record a registration answered. One createRoute() config
 * each: the one declaration that routes/control-dns.ts, the control plane's OpenAPI document and
 * the typed client (client/control.ts) share.
 */
import { createRoute } from '@hono/zod-openapi';
import { envelope, errorResponses, jsonBody, jsonResponse, list } from '../schemas/common.js';
import { DnsNameParam, MAX_TXT_NAMES, MAX_TXT_VALUE_LENGTH, MAX_TXT_VALUES, SetTxtRecordBody, TxtRecord, TxtRecordDeleted } from '../schemas/dns.js';
import { CONTROL_SECURITY, GUARDED } from './control.js';
import type { ControlTag } from './tags.js';

const tagged = { tags: ['DNS' satisfies ControlTag], security: CONTROL_SECURITY };

export const controlDnsOperations = {
  listDnsTxtRecords: createRoute({
    method: 'get',
    path: '/txt',
    operationId: 'listDnsTxtRecords',
    ...tagged,
    summary: 'List the emulated TXT records',
    description: 'Every emulated TXT record, by name: what custom-domain verification reads before it asks a resolver.',
    responses: { 200: jsonResponse(list(TxtRecord), 'The records, by name'), ...GUARDED },
  }),
  getDnsTxtRecord: createRoute({
    method: 'get',
    path: '/txt/{name}',
    operationId: 'getDnsTxtRecord',
    ...tagged,
    summary: 'Read an emulated TXT record',
    description: 'The values the name answers. 404 when it has no emulated record (a verification then asks the resolver).',
    request: { params: DnsNameParam },
    responses: { 200: jsonResponse(envelope(TxtRecord), 'The record'), ...errorResponses(404), ...GUARDED },
  }),
  setDnsTxtRecord: createRoute({
    method: 'put',
    path: '/txt/{name}',
    operationId: 'setDnsTxtRecord',
    ...tagged,
    summary: 'Publish an emulated TXT record',
    description: `Sets the values the name answers (1 to ${MAX_TXT_VALUES}, each at most ${MAX_TXT_VALUE_LENGTH} characters), replacing those it had; names are case-insensitive and a trailing dot is dropped. From then on a verification of the name reads these and asks no resolver. 409 when the zone holds ${MAX_TXT_NAMES} other names.`,
    request: { params: DnsNameParam, ...jsonBody(SetTxtRecordBody) },
    responses: { 200: jsonResponse(envelope(TxtRecord), 'The record as stored'), ...errorResponses(409), ...GUARDED },
  }),
  removeDnsTxtRecord: createRoute({
    method: 'delete',
    path: '/txt/{name}',
    operationId: 'removeDnsTxtRecord',
    ...tagged,
    summary: 'Remove an emulated TXT record',
    description: "Removes the name's record: a verification of the name asks the resolver again. 404 when it has none.",
    request: { params: DnsNameParam },
    responses: { 200: jsonResponse(envelope(TxtRecordDeleted), 'The record is gone'), ...errorResponses(404), ...GUARDED },
  }),
};
