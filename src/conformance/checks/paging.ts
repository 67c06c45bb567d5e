/**
 * Pagination semantics shared by the paginated lists (apps, users): the spec's fields must
 * agree with each other across pages (spec part 2), and the emulator's D7 rules — page_size
 * honoured, hasMore = page * pageSize < total, search, newest first, bounds — hold.
 */
import type { ApiResult } from '../../client/index.js';
import { CheckSkip, expect, expectShape, expectStatus } from '../expect.js';
import { SpecPage, expectErrorCode } from '../shapes.js';
import type { Check, CheckContext } from '../types.js';

type Area = 'apps' | 'users';
type Make = (ctx: CheckContext, label: string) => Promise<string>;
type SpecPageBody = ReturnType<typeof SpecPage.parse>;

const MAX_WALK_PAGES = 10;
const HAS_MORE_RULE = 'part 2: hasMore is true exactly when further pages exist';

async function fetchPage(ctx: CheckContext, area: Area, query: Record<string, string | number | undefined>) {
  const result = await ctx.client.request('GET', `/${area}`, { query });
  expectStatus(result, 200, `part 4: list ${area}`);
  return { result, page: expectShape(result, SpecPage, `part 2: list ${area} uses the paginated envelope`) };
}

/** Three records whose names carry one marker, made once per run and area. */
function marked(ctx: CheckContext, area: Area, make: Make): Promise<{ marker: string; names: string[] }> {
  return ctx.shared(`${area}-paging`, async () => {
    const names: string[] = [];
    for (let i = 0; i < 3; i += 1) names.push(await make(ctx, 'paging'));
    return { marker: `${ctx.runId}-paging`, names };
  });
}

const idsOf = (page: { data: unknown[] }): string[] => page.data.map((item) => String((item as { id?: unknown }).id));

/**
 * Reads the first page, then every further page at once (as many as its total and pageSize
 * say, up to MAX_WALK_PAGES in all): answers the pages, or undefined if the list changed meanwhile.
 */
async function walk(ctx: CheckContext, area: Area): Promise<Array<{ result: ApiResult<unknown>; page: SpecPageBody }> | undefined> {
  const first = await fetchPage(ctx, area, {});
  const { page, pageSize, total } = first.page;
  const further = first.page.hasMore && pageSize > 0 ? Math.min(MAX_WALK_PAGES, Math.ceil(total / pageSize)) - page : 0;
  const rest = await Promise.all(Array.from({ length: Math.max(0, further) }, (_, index) => fetchPage(ctx, area, { page: page + 1 + index })));
  if (rest.some((next) => next.page.total !== total)) return undefined;
  // The walk ends at the first page that says no more follow, as one read page by page would.
  const end = [first, ...rest].findIndex((next) => !next.page.hasMore);
  const pages = end === -1 ? [first, ...rest] : [first, ...rest].slice(0, end + 1);
  // A page that says hasMore past the last one its total allows is read too, one by one, so the walk sees what the target says.
  while (pages.length < MAX_WALK_PAGES && pages.at(-1)!.page.hasMore) {
    const next = await fetchPage(ctx, area, { page: pages.at(-1)!.page.page + 1 });
    if (next.page.total !== total) return undefined;
    pages.push(next);
  }
  return pages;
}

export function pagingChecks(area: Area, make: Make): Check[] {
  return [
    {
      id: `${area}.pages-agree`,
      tags: [area, 'pagination'],
      description: `walking GET /${area} page by page, hasMore, total and the items seen agree`,
      spec: 'part 2 (paginated envelope: total, page, pageSize, hasMore)',
      profile: 'spec',
      creates: false,
      uses: { lists: 'walks', why: 'walks the whole list, which must not grow while it does' },
      run: async (ctx) => {
        const pages = (await walk(ctx, area)) ?? (await walk(ctx, area));
        if (pages === undefined) throw new CheckSkip(`the ${area} list changed during the walk twice (other writers); nothing to hold it to`);
        const seen = new Set<string>();
        for (const [index, { result, page }] of pages.entries()) {
          expect(
            page.data.length <= page.pageSize,
            'part 2: pageSize is the items per page',
            `${page.data.length} items on a page of ${page.pageSize}`,
            result,
          );
          if (index > 0)
            expect(
              page.page === pages[index - 1]!.page.page + 1,
              'part 2: page is the current page number',
              `asked for page ${pages[index - 1]!.page.page + 1}, got ${page.page}`,
              result,
            );
          if (page.hasMore) expect(page.data.length > 0, HAS_MORE_RULE, 'hasMore is true on an empty page', result);
          for (const id of idsOf(page)) seen.add(id);
        }
        const last = pages.at(-1)!;
        if (last.page.hasMore) {
          ctx.note(`${MAX_WALK_PAGES} pages walked of ${last.page.total} items; the rest not checked`);
          expect(seen.size < last.page.total, HAS_MORE_RULE, `hasMore is true but all ${last.page.total} items were seen`, last.result);
          return;
        }
        expect(
          seen.size === last.page.total,
          HAS_MORE_RULE,
          `hasMore is false after ${seen.size} distinct items, but total is ${last.page.total}`,
          last.result,
        );
      },
    },
    {
      id: `${area}.page-size`,
      tags: [area, 'pagination'],
      description: `GET /${area}?page_size=2 answers 2 items, pageSize 2, and hasMore = page * pageSize < total`,
      spec: 'D7',
      profile: 'emulator',
      creates: true,
      run: async (ctx) => {
        const { marker } = await marked(ctx, area, make);
        const { result, page } = await fetchPage(ctx, area, { search: marker, page_size: 2 });
        expect(page.pageSize === 2, 'D7: page_size is honoured', `pageSize is ${page.pageSize}`, result);
        expect(page.data.length === 2, 'D7: page_size is honoured', `${page.data.length} items on the page`, result);
        expect(page.total === 3, 'D7: total counts all matches', `total ${page.total}, expected 3`, result);
        expect(page.hasMore === true, 'D7: hasMore = page * pageSize < total', 'hasMore is false with 2 of 3 items shown', result);
      },
    },
    {
      id: `${area}.pages-consistent`,
      tags: [area, 'pagination'],
      description: `pages 1, 2 and 3 of GET /${area}?page_size=2 hold each match once; past the end is 200 and empty`,
      spec: 'D7',
      profile: 'emulator',
      creates: true,
      run: async (ctx) => {
        const { marker, names } = await marked(ctx, area, make);
        const first = await fetchPage(ctx, area, { search: marker, page_size: 2, page: 1 });
        const second = await fetchPage(ctx, area, { search: marker, page_size: 2, page: 2 });
        const third = await fetchPage(ctx, area, { search: marker, page_size: 2, page: 3 });
        expect(
          second.page.page === 2 && second.page.data.length === 1,
          'D7: page 2 holds the rest',
          `page ${second.page.page} with ${second.page.data.length} items`,
          second.result,
        );
        expect(second.page.hasMore === false, 'D7: hasMore = page * pageSize < total', 'hasMore is true on the last page', second.result);
        const ids = [...idsOf(first.page), ...idsOf(second.page)];
        expect(new Set(ids).size === 3, 'D7: each item is on exactly one page', `ids ${ids.join(', ')}`, second.result);
        expect(
          third.page.data.length === 0 && third.page.hasMore === false && third.page.total === 3,
          'D7: a page past the end is 200 with empty data',
          `${third.page.data.length} items, hasMore ${third.page.hasMore}`,
          third.result,
        );
        const text = first.result.text + second.result.text;
        expect(
          names.every((name) => text.includes(name)),
          'D7: search finds every match',
          'a created record is missing',
          second.result,
        );
      },
    },
    {
      id: `${area}.search`,
      tags: [area, 'search'],
      description: `GET /${area}?search= is a case-insensitive substring match`,
      spec: 'D7',
      profile: 'emulator',
      creates: true,
      run: async (ctx) => {
        const { marker } = await marked(ctx, area, make);
        const upper = await fetchPage(ctx, area, { search: marker.toUpperCase() });
        expect(upper.page.total === 3, 'D7: search is case-insensitive', `search=${marker.toUpperCase()} found ${upper.page.total}, expected 3`, upper.result);
        const none = await fetchPage(ctx, area, { search: `${marker}-nothing-matches` });
        expect(none.page.total === 0 && none.page.data.length === 0, 'D7: search filters', `found ${none.page.total}`, none.result);
      },
    },
    {
      id: `${area}.newest-first`,
      tags: [area, 'pagination'],
      description: `GET /${area} lists newest first`,
      spec: 'D7',
      profile: 'emulator',
      creates: false,
      run: async (ctx) => {
        const { result, page } = await fetchPage(ctx, area, { page_size: 100 });
        const times = page.data.map((item) => String((item as { createdAt?: unknown }).createdAt));
        const bad = times.findIndex((time, i) => i > 0 && time > times[i - 1]!);
        expect(bad === -1, 'D7: order is newest first', `item ${bad} (${times[bad]}) is newer than item ${bad - 1} (${times[bad - 1]})`, result);
      },
    },
  ];
}

const BAD_QUERIES = [
  { query: { page_size: 101 }, why: 'page_size above 100' },
  { query: { page_size: 0 }, why: 'page_size 0' },
  { query: { page: 0 }, why: 'page 0 (pages are 1-based)' },
  { query: { page: 'two' }, why: 'a page that is not a number' },
] as const;

export function pageBoundChecks(area: Area, path: string): Check[] {
  return [
    {
      id: `${area}.page-bounds`,
      tags: [area, 'pagination'],
      description: `GET ${path} refuses page 0, page_size 0 or over 100, and non-numbers with 400 validation_error`,
      spec: 'D7',
      profile: 'emulator',
      creates: false,
      run: async (ctx) => {
        for (const { query, why } of BAD_QUERIES) {
          expectErrorCode(await ctx.client.request('GET', path, { query }), 400, 'validation_error', `D7: ${why} is 400`);
        }
        const max = await ctx.client.request('GET', path, { query: { page_size: 100 } });
        expectStatus(max, 200, 'D7: page_size 100 is allowed');
      },
    },
  ];
}
