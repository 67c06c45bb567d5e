/**
 * Every citation and relative link resolves inside the repo, so a reader with only the checkout can follow it:
 * "D9" (or "DESIGN D9") is docs/design.md#d9, "spec part 6" (or "part 6", "Part 6", "part 6.2") is docs/service-api.md#part-6,
 * a `docs/page.md#anchor` written in code names a page and an anchor that exist, and every relative Markdown link
 * in README.md, ARCHITECTURE.md, bench/README.md, conformance/README.md and docs/ reaches a file and, after `#`, an anchor in it.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { CATALOGUE } from '../src/conformance/catalogue.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CODE_DIRS = ['src', 'test', 'bench', 'scripts'];
const CODE_FILE = /\.(ts|tsx|js|mjs|cjs|sh)$/;
const SKIP_DIRS = new Set(['node_modules', 'dist', '.cache', '.git']);
const DESIGN_PAGE = 'docs/design.md';
const SPEC_PAGE = 'docs/service-api.md';

function walk(dir: string, keep: (path: string) => boolean): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return SKIP_DIRS.has(name) ? [] : walk(path, keep);
    return keep(path) ? [path] : [];
  });
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, each space a hyphen; repeats get -1, -2. */
function slug(heading: string): string {
  const text = heading.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, '')
    .replace(/ /g, '-');
}

/** Markdown with fenced code blocks blanked out (line numbers kept), so examples are not read as links. */
function withoutFences(markdown: string): string {
  let inFence = false;
  return markdown
    .split('\n')
    .map((line) => {
      if (/^\s*(```|~~~)/.test(line)) {
        inFence = !inFence;
        return '';
      }
      return inFence ? '' : line;
    })
    .join('\n');
}

function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of withoutFences(markdown).split('\n')) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      const base = slug(heading[1]!);
      const count = seen.get(base) ?? 0;
      seen.set(base, count + 1);
      anchors.add(count === 0 ? base : `${base}-${count}`);
    }
    for (const id of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(id[1]!);
  }
  return anchors;
}

/** What a tree's citations and links point at that is not there, one line per problem. */
function unresolved(root: string, skip: readonly string[] = []): string[] {
  const problems: string[] = [];
  const anchorCache = new Map<string, Set<string> | undefined>();
  const anchorsIn = (path: string): Set<string> | undefined => {
    if (!anchorCache.has(path)) {
      let text: string | undefined;
      try {
        text = statSync(path).isFile() ? readFileSync(path, 'utf8') : undefined;
      } catch {
        text = undefined;
      }
      anchorCache.set(path, text === undefined ? undefined : anchorsOf(text));
    }
    return anchorCache.get(path);
  };
  const needAnchor = (where: string, page: string, anchor: string, cited: string): void => {
    const anchors = anchorsIn(join(root, page));
    if (anchors === undefined) problems.push(`${where}: "${cited}" cites ${page}, which does not exist`);
    else if (!anchors.has(anchor)) problems.push(`${where}: "${cited}" cites ${page}#${anchor}, which has no such anchor`);
  };
  const citations = (where: string, text: string): void => {
    for (const match of text.matchAll(/\bD(\d{1,2})\b/g)) needAnchor(where, DESIGN_PAGE, `d${Number(match[1])}`, match[0]);
    for (const match of text.matchAll(/\b[Pp]arts? (\d+)((?:(?:, | and | or )\d+)*)/g))
      for (const part of [match[1]!, ...(match[2]!.match(/\d+/g) ?? [])]) needAnchor(where, SPEC_PAGE, `part-${Number(part)}`, match[0]);
    for (const match of text.matchAll(/\bdocs\/([\w./-]+\.md)(?:#([\w.-]+))?/g)) {
      const page = `docs/${match[1]!}`;
      if (match[2] === undefined) {
        if (anchorsIn(join(root, page)) === undefined) problems.push(`${where}: "${match[0]}" names a page that does not exist`);
      } else needAnchor(where, page, match[2], match[0]);
    }
  };

  const codeFiles = CODE_DIRS.flatMap((dir) => walk(join(root, dir), (path) => CODE_FILE.test(path) && !skip.includes(relative(root, path))));
  for (const file of codeFiles) {
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, index) => citations(`${relative(root, file)}:${index + 1}`, line));
  }

  const pages = [
    ...['README.md', 'ARCHITECTURE.md', 'bench/README.md', 'conformance/README.md']
      .map((name) => join(root, name))
      .filter((path) => anchorsIn(path) !== undefined),
    ...walk(join(root, 'docs'), (path) => path.endsWith('.md')),
  ];
  for (const page of pages) {
    withoutFences(readFileSync(page, 'utf8'))
      .split('\n')
      .forEach((line, index) => {
        const where = `${relative(root, page)}:${index + 1}`;
        const prose = line.replace(/`[^`]*`/g, '');
        citations(where, prose);
        for (const link of prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
          const target = link[1]!;
          if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
          const [file = '', anchor] = target.split('#', 2);
          const path = file === '' ? page : resolve(dirname(page), decodeURIComponent(file));
          let exists = false;
          try {
            exists = statSync(path).isFile() || statSync(path).isDirectory();
          } catch {
            exists = false;
          }
          if (!exists) problems.push(`${where}: link ${target} reaches no file`);
          else if (anchor !== undefined && anchor !== '' && !anchorsIn(path)?.has(anchor)) problems.push(`${where}: link ${target} has no anchor #${anchor}`);
        }
      });
  }
  return problems;
}

describe('citations and links in the repo', () => {
  it('all resolve: D<n> to docs/design.md, spec parts to docs/service-api.md, relative links to files and anchors', () => {
    // This file is left out: its checker cases cite missing targets on purpose.
    expect(unresolved(ROOT, ['test/docs-links.test.ts'])).toEqual([]);
  });

  it('has a design section for every rule the code cites and a summary of every part of the API document', () => {
    const design = anchorsOf(readFileSync(join(ROOT, DESIGN_PAGE), 'utf8'));
    for (let rule = 1; rule <= 17; rule++) expect(design.has(`d${rule}`), `D${rule}`).toBe(true);
    const spec = anchorsOf(readFileSync(join(ROOT, SPEC_PAGE), 'utf8'));
    for (let part = 1; part <= 9; part++) expect(spec.has(`part-${part}`), `part ${part}`).toBe(true);
  });
});

describe('the conformance catalogue', () => {
  it('prints with every check a docs path, for each part and rule it cites, that resolves', () => {
    const pages = new Map([DESIGN_PAGE, SPEC_PAGE].map((page) => [page, anchorsOf(readFileSync(join(ROOT, page), 'utf8'))]));
    for (const check of CATALOGUE) {
      const paths = [...check.spec.matchAll(/(docs\/[\w-]+\.md)#([\w-]+)/g)];
      expect(paths.length, `${check.id}: ${check.spec}`).toBeGreaterThan(0);
      for (const [, page, anchor] of paths) expect(pages.get(page!)?.has(anchor!), `${check.id}: ${page}#${anchor}`).toBe(true);
    }
  });
});

describe('the checker', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  /** A tree with one valid citation and link of each kind, and the files given. */
  function tree(files: Record<string, string>): string {
    const root = mkdtempSync(join(tmpdir(), 'svc-docs-links-'));
    dirs.push(root);
    const all: Record<string, string> = {
      'docs/design.md': '# Design\n\n<a id="d1"></a>\n\n## D1 Addresses\n',
      'docs/service-api.md': '# API\n\n<a id="part-1"></a>\n\n## Part 1\n',
      'README.md': '# svc\n\nSee [the design](docs/design.md#d1) and [addresses](docs/design.md#d1-addresses).\n',
      'src/ok.ts': '// D1, spec part 1, docs/design.md#d1\n',
      ...files,
    };
    for (const [name, text] of Object.entries(all)) {
      mkdirSync(dirname(join(root, name)), { recursive: true });
      writeFileSync(join(root, name), text);
    }
    return root;
  }

  it('passes a tree whose citations and links all resolve', () => {
    expect(unresolved(tree({}))).toEqual([]);
  });

  it('reports a rule, a part, a page and an anchor that are not there, and a link to a missing file', () => {
    const problems = unresolved(
      tree({
        'src/bad.ts': '// DESIGN D7 and spec part 4 and docs/nowhere.md\n',
        'docs/more.md':
          '# More\n\n[gone](gone.md), [no anchor](design.md#d2), [self](#missing) and `[code](ignored.md)`\n\n```\n[fenced](also-ignored.md)\n```\n',
      }),
    );
    expect(problems).toEqual([
      'src/bad.ts:1: "D7" cites docs/design.md#d7, which has no such anchor',
      'src/bad.ts:1: "part 4" cites docs/service-api.md#part-4, which has no such anchor',
      'src/bad.ts:1: "docs/nowhere.md" names a page that does not exist',
      'docs/more.md:3: link gone.md reaches no file',
      'docs/more.md:3: link design.md#d2 has no anchor #d2',
      'docs/more.md:3: link #missing has no anchor #missing',
    ]);
  });

  it('checks every citation of a list and every form the code writes: D<n> alone or after DESIGN, a part, a section of a part, a page and its anchor', () => {
    const problems = unresolved(
      tree({
        'src/forms.ts': [
          '// D1/D18, DESIGN D1, D19 and (D20)',
          '// spec parts 1 and 7, part 1.2, Part 6.2, part 8.1',
          "const cited = 'docs/design.md#d1, docs/design.md#d3';",
          '',
        ].join('\n'),
      }),
    );
    expect(problems).toEqual([
      'src/forms.ts:1: "D18" cites docs/design.md#d18, which has no such anchor',
      'src/forms.ts:1: "D19" cites docs/design.md#d19, which has no such anchor',
      'src/forms.ts:1: "D20" cites docs/design.md#d20, which has no such anchor',
      'src/forms.ts:2: "parts 1 and 7" cites docs/service-api.md#part-7, which has no such anchor',
      'src/forms.ts:2: "Part 6" cites docs/service-api.md#part-6, which has no such anchor',
      'src/forms.ts:2: "part 8" cites docs/service-api.md#part-8, which has no such anchor',
      'src/forms.ts:3: "docs/design.md#d3" cites docs/design.md#d3, which has no such anchor',
    ]);
  });
});
