/**
 * conformance/README.md carries the catalogue as generated from the checks, so it cannot go
 * stale; UPDATE_CATALOGUE=1 rewrites the block. The example baseline is valid and names checks.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadBaseline } from './baseline.js';
import { CATALOGUE } from './catalogue.js';
import { CATALOGUE_BEGIN, CATALOGUE_END, catalogueMarkdown } from './catalogue-doc.js';

const README = fileURLToPath(new URL('../../conformance/README.md', import.meta.url));
const BASELINE = fileURLToPath(new URL('../../conformance/baseline.example.json', import.meta.url));

describe('conformance/README.md', () => {
  it('holds the generated catalogue', () => {
    const text = readFileSync(README, 'utf8');
    const start = text.indexOf(CATALOGUE_BEGIN);
    const end = text.indexOf(CATALOGUE_END) + CATALOGUE_END.length;
    expect(start, 'the catalogue markers').toBeGreaterThan(-1);
    const fresh = `${text.slice(0, start)}${catalogueMarkdown()}${text.slice(end)}`;
    if (process.env['UPDATE_CATALOGUE'] === '1') writeFileSync(README, fresh);
    expect(text, 'run UPDATE_CATALOGUE=1 npx vitest run src/conformance/catalogue-doc.test.ts').toBe(fresh);
  });

  it('ships an example baseline whose entries name real checks and give reasons', async () => {
    const baseline = await loadBaseline(BASELINE);
    expect(baseline.entries.length).toBeGreaterThan(0);
    for (const entry of baseline.entries)
      expect(
        CATALOGUE.some((check) => check.id === entry.id),
        entry.id,
      ).toBe(true);
  });
});
