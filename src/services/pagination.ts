/** Pagination (D7): 1-based pages, `hasMore` is `page * pageSize < total`. */
import { DEFAULT_PAGE_SIZE, type Page } from '../schemas/common.js';

export interface PageRequest {
  page?: number | undefined;
  page_size?: number | undefined;
}

export type { Page };

export function paginate<T, V>(items: readonly T[], request: PageRequest, view: (item: T) => V): Page<V> {
  const page = request.page ?? 1;
  const pageSize = request.page_size ?? DEFAULT_PAGE_SIZE;
  const start = (page - 1) * pageSize;
  return {
    data: items.slice(start, start + pageSize).map(view),
    total: items.length,
    page,
    pageSize,
    hasMore: page * pageSize < items.length,
  };
}

/**
 * One pass over an already ordered list: counts every match and keeps only the requested
 * page, so a page of 20 out of 100,000 records allocates 20.
 */
export function paginateMatching<T, V>(ordered: readonly T[], matches: ((item: T) => boolean) | null, request: PageRequest, view: (item: T) => V): Page<V> {
  const page = request.page ?? 1;
  const pageSize = request.page_size ?? DEFAULT_PAGE_SIZE;
  const start = (page - 1) * pageSize;
  const end = start + pageSize;
  if (matches === null) {
    return { data: ordered.slice(start, end).map(view), total: ordered.length, page, pageSize, hasMore: end < ordered.length };
  }
  const data: V[] = [];
  let total = 0;
  for (const item of ordered) {
    if (!matches(item)) continue;
    if (total >= start && total < end) data.push(view(item));
    total++;
  }
  return { data, total, page, pageSize, hasMore: page * pageSize < total };
}
