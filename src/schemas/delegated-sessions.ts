/** Delegated sessions and the embedded ledger's commands (spec part 4; D13, D15). */
import { z } from '@hono/zod-openapi';
import { secret } from './secret.js';
import { parseDuration } from '../duration.js';
import { Duration, IsoTimestamp, MAX_PAGE_SIZE, idOf } from './common.js';
import { PartyId } from './users.js';
import { ANY_TEMPLATE_OR_CHOICE } from './words.js';

/** The longest a delegated session may live. */
export const MAX_DELEGATED_SESSION_MS = 30 * 24 * 60 * 60 * 1000;

/** Any template id, such as `#pkg:Module:Template` (D13): no Daml packages are checked. */
export const TemplateId = z
  .string()
  .min(1)
  .max(256)
  .regex(/^\S+$/, 'a template id without spaces, such as #pkg:Module:Template')
  .openapi({ example: '#pkg:Module:Template' });

export const ChoiceName = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_']{0,127}$/, 'a choice name such as Archive or Transfer')
  .openapi({ example: 'Transfer' });

const JsonObject = z.record(z.string(), z.unknown()).openapi({ type: 'object', additionalProperties: true });

export const Permissions = z
  .object({
    templates: z
      .array(z.union([z.literal(ANY_TEMPLATE_OR_CHOICE), TemplateId]))
      .min(1)
      .max(100)
      .openapi({ description: 'Templates the session may create and exercise on; "*" for any' }),
    choices: z
      .array(z.union([z.literal(ANY_TEMPLATE_OR_CHOICE), ChoiceName]))
      .max(100)
      .openapi({ description: 'Choices the session may exercise; "*" for any' }),
  })
  .openapi('DelegatedPermissions');

export const CreateDelegatedSessionBody = z
  .object({
    walletId: idOf('wal'),
    permissions: Permissions,
    maxCommands: z.number().int().min(1).max(1_000_000).optional().openapi({ description: 'How many commands it may execute in all' }),
    expiresIn: Duration.refine((text) => (parseDuration(text) ?? 0) > 0, 'expiresIn must be longer than 0')
      .refine((text) => (parseDuration(text) ?? 0) <= MAX_DELEGATED_SESSION_MS, 'expiresIn is at most 30d')
      .openapi({ example: '1h', description: 'How long the session lives, at most 30d' }),
  })
  .openapi('CreateDelegatedSession');

export const DelegatedSessionStatus = z.enum(['active', 'revoked', 'expired']).openapi('DelegatedSessionStatus');

export const DelegatedSession = z
  .object({
    id: idOf('dsn'),
    status: DelegatedSessionStatus,
    walletId: idOf('wal'),
    userId: idOf('usr'),
    partyId: PartyId,
    permissions: Permissions,
    maxCommands: z.number().int().nullable(),
    usage: z.object({
      commands: z.number().int().openapi({ description: 'Commands executed (completed or failed)' }),
      completed: z.number().int(),
      failed: z.number().int(),
      denied: z.number().int().openapi({ description: 'Commands refused for being outside the permissions or the budget' }),
      queries: z.number().int(),
      remaining: z.number().int().nullable().openapi({ description: 'Commands left under maxCommands; null when unlimited' }),
    }),
    createdAt: IsoTimestamp,
    expiresAt: IsoTimestamp,
    revokedAt: IsoTimestamp.nullable(),
    lastUsedAt: IsoTimestamp.nullable(),
  })
  .openapi('DelegatedSession');

export const CreatedDelegatedSession = DelegatedSession.extend({
  token: secret(z.string().regex(/^dst_[0-9A-Za-z]{32}$/)).openapi({
    description: 'Answered only here: the delegate sends it as Authorization: Bearer <token> to execute and query',
  }),
}).openapi('CreatedDelegatedSession');

const CreateCommandBody = z.object({ templateId: TemplateId, payload: JsonObject.default({}) });

export const LedgerCommandBody = z
  .object({
    create: CreateCommandBody.optional(),
    exercise: z
      .object({
        contractId: z.string().min(1).max(200),
        choice: ChoiceName,
        argument: JsonObject.optional(),
        creates: z
          .array(CreateCommandBody)
          .max(20)
          .optional()
          .openapi({ description: "Contracts the choice creates (svc extension: the choice's consequences)" }),
      })
      .optional(),
  })
  .refine((command) => (command.create === undefined) !== (command.exercise === undefined), 'give exactly one of create or exercise')
  .openapi('LedgerCommand');

export const ExecuteBody = z.object({ command: LedgerCommandBody }).openapi('ExecuteCommand');

export const LedgerEvent = z
  .discriminatedUnion('type', [
    z.object({ type: z.literal('created'), contractId: z.string(), templateId: z.string(), payload: JsonObject, signatories: z.array(z.string()) }),
    z.object({
      type: z.literal('exercised'),
      contractId: z.string(),
      templateId: z.string(),
      choice: z.string(),
      argument: JsonObject,
      consuming: z.boolean(),
    }),
    z.object({ type: z.literal('archived'), contractId: z.string(), templateId: z.string() }),
  ])
  .openapi('LedgerEvent');

export const Transaction = z
  .object({
    id: idOf('tx'),
    updateId: z.string().nullable().openapi({ description: 'The ledger update; null when the ledger rejected the command' }),
    status: z.enum(['completed', 'failed']),
    events: z.array(LedgerEvent),
    rejection: z.object({ code: z.string(), message: z.string() }).nullable(),
    sessionId: idOf('dsn'),
    createdAt: IsoTimestamp,
  })
  .openapi('Transaction');

export const QueryBody = z
  .object({
    templateId: TemplateId.optional(),
    page: z.number().int().min(1).optional(),
    pageSize: z.number().int().min(1).max(MAX_PAGE_SIZE).optional(),
  })
  .openapi('QueryContracts');

export const Contract = z
  .object({
    contractId: idOf('ctr'),
    templateId: z.string(),
    payload: JsonObject,
    signatories: z.array(z.string()),
    createdAt: IsoTimestamp,
    status: z.enum(['active', 'archived']),
    archivedAt: IsoTimestamp.nullable(),
  })
  .openapi('Contract');

export type CreateDelegatedSessionInput = z.infer<typeof CreateDelegatedSessionBody>;
export type DelegatedSessionView = z.infer<typeof DelegatedSession>;
export type LedgerCommandInput = z.infer<typeof LedgerCommandBody>;
export type TransactionView = z.infer<typeof Transaction>;
export type QueryInput = z.infer<typeof QueryBody>;
