/**
 * What a delegated session may do on the ledger: its permissions list templates and choices
 * (`*` matches any). A create needs its template; an exercise needs its choice and the
 * template of the contract it acts on, and of every contract it creates.
 */
import { ANY_TEMPLATE_OR_CHOICE } from '../schemas/words.js';
import type { LedgerCommand } from './types.js';

export interface Permissions {
  templates: string[];
  choices: string[];
}

function allows(list: readonly string[], name: string): boolean {
  return list.includes(ANY_TEMPLATE_OR_CHOICE) || list.includes(name);
}

/** Whether the permissions allow one template (for queries). */
export function allowsTemplate(permissions: Permissions, templateId: string): boolean {
  return allows(permissions.templates, templateId);
}

/**
 * Why a command is outside the permissions, or null when it is within them. `templates` are
 * the templates it touches (see commandTemplates).
 */
export function deniedReason(permissions: Permissions, command: LedgerCommand, templates: readonly string[]): string | null {
  if ('exercise' in command && !allows(permissions.choices, command.exercise.choice)) {
    return `choice ${command.exercise.choice} is not in the session's permissions`;
  }
  const outside = templates.find((templateId) => !allows(permissions.templates, templateId));
  return outside === undefined ? null : `template ${outside} is not in the session's permissions`;
}
