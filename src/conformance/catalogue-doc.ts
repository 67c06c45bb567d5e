/**
 * The catalogue as Markdown, for conformance/README.md (a test keeps the file in step). Its table
 * keeps the short citations (`part 6, D9`); the docs paths they resolve to are in CATALOGUE.
 */
import { CHECKS } from './catalogue.js';
import { areaOf, type Check } from './types.js';

export const CATALOGUE_BEGIN = '<!-- catalogue:begin (generated from src/conformance/catalogue.ts) -->';
export const CATALOGUE_END = '<!-- catalogue:end -->';

const cell = (text: string): string => text.replace(/\|/g, '\\|');

export function catalogueMarkdown(checks: readonly Check[] = CHECKS): string {
  const areas = new Map<string, Check[]>();
  for (const check of checks) areas.set(areaOf(check), [...(areas.get(areaOf(check)) ?? []), check]);
  const lines = [CATALOGUE_BEGIN, '', `${checks.length} checks; ${checks.filter((c) => c.profile === 'spec').length} in the spec profile.`, ''];
  for (const [area, list] of areas) {
    lines.push(`### ${area} (${list.length})`, '', '| id | profile | creates | rule | spec |', '|---|---|---|---|---|');
    for (const check of list) {
      const profile = `${check.profile}${check.slow === true ? ', slow' : ''}`;
      lines.push(`| \`${check.id}\` | ${profile} | ${check.creates ? 'yes' : 'no'} | ${cell(check.description)} | ${cell(check.spec)} |`);
    }
    lines.push('');
  }
  lines.push(CATALOGUE_END);
  return lines.join('\n');
}
