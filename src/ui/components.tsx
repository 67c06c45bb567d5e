/** Small pieces the dashboard's pages (and the pages that share its look) are built from. */
import type { Child } from 'hono/jsx';
import { shortTime, UI_BASE } from './layout.js';

const TONES: Record<string, string> = {
  succeeded: 'ok',
  active: 'ok',
  enabled: 'ok',
  verified: 'ok',
  failed: 'warn',
  pending: 'info',
  basic: 'info',
  dead: 'bad',
  revoked: 'bad',
  disabled: 'bad',
  trusted: 'accent',
};

/** A status word in a coloured pill (succeeded green, failed amber, dead red, pending blue…). */
export function Badge({ value, tone }: { value: string; tone?: string }) {
  return <span class={`badge ${tone ?? TONES[value] ?? ''}`}>{value}</span>;
}

/** An emulator timestamp, readable, with the exact ISO value on hover. */
export function Time({ iso }: { iso: string | null | undefined }) {
  if (!iso) return <span class="muted">—</span>;
  return (
    <time class="mono nowrap" datetime={iso} title={iso}>
      {shortTime(iso).replace(' UTC', '')}
    </time>
  );
}

/** An API key as listings show it (D3): its prefix and last four characters, never the value. */
export function MaskedKey({ prefix, last4 }: { prefix: string; last4: string }) {
  return <code>{`${prefix}…${last4}`}</code>;
}

export function Empty({ children }: { children?: Child }) {
  return <p class="empty">{children}</p>;
}

export function Card({ title, actions, children, id }: { title: Child; actions?: Child; children?: Child; id?: string }) {
  return (
    <section class="card" id={id}>
      <h2>
        {title}
        {actions !== undefined && <span class="actions">{actions}</span>}
      </h2>
      {children}
    </section>
  );
}

/** A table column: its heading, and whether it holds numbers (right-aligned). An empty heading is a column of buttons. */
export type Column = string | { label: string; num: true };

/** A scrollable table with one heading row; the children are its body rows. */
export function Table({ columns, children }: { columns: readonly Column[]; children?: Child }) {
  return (
    <div class="table-wrap">
      <table>
        <thead>
          <tr>{columns.map((column) => (typeof column === 'string' ? <th>{column}</th> : <th class="num">{column.label}</th>))}</tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

/** Breadcrumbs above a page title. */
export function Crumbs({ items }: { items: Array<{ href?: string; label: string }> }) {
  return (
    <div class="crumbs">
      {items.map((item, index) => (
        <>
          {index > 0 && ' / '}
          {item.href === undefined ? item.label : <a href={item.href}>{item.label}</a>}
        </>
      ))}
    </div>
  );
}

/**
 * A button that POSTs a small form to a dashboard action and comes back to `back` (works
 * without JavaScript: the action answers 303 to the page it came from).
 */
export function PostButton(props: {
  action: string;
  back: string;
  label: string;
  fields?: Record<string, string>;
  kind?: 'primary' | 'danger' | undefined;
  small?: boolean;
  confirm?: string;
  title?: string;
}) {
  const classes = ['btn', props.kind, props.small ? 'small' : undefined].filter(Boolean).join(' ');
  return (
    <form class="inline" method="post" action={`${UI_BASE}${props.action}`} data-confirm={props.confirm}>
      <input type="hidden" name="back" value={props.back} />
      {Object.entries(props.fields ?? {}).map(([name, value]) => (
        <input type="hidden" name={name} value={value} />
      ))}
      <button class={classes} type="submit" title={props.title}>
        {props.label}
      </button>
    </form>
  );
}

/** Previous/next links for a paginated list (D7), keeping the other query parameters. */
export function Pager(props: { path: string; query: Record<string, string | undefined>; page: number; pageSize: number; total: number }) {
  const pages = Math.max(1, Math.ceil(props.total / props.pageSize));
  const link = (page: number): string => {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(props.query)) if (value !== undefined && value !== '') params.set(name, value);
    params.set('page', String(page));
    return `${props.path}?${params.toString()}`;
  };
  const first = props.total === 0 ? 0 : (props.page - 1) * props.pageSize + 1;
  const last = Math.min(props.total, props.page * props.pageSize);
  return (
    <div class="pager">
      <span>
        {first}–{last} of {props.total} · page {props.page} of {pages}
      </span>
      <a class="btn small" href={link(props.page - 1)} aria-disabled={props.page <= 1 ? 'true' : undefined} rel="prev">
        ← Previous
      </a>
      <a class="btn small" href={link(props.page + 1)} aria-disabled={props.page >= pages ? 'true' : undefined} rel="next">
        Next →
      </a>
    </div>
  );
}

/** JSON, pretty-printed and escaped, folded away unless `open`. */
export function Json({ value, summary, open }: { value: unknown; summary?: string; open?: boolean }) {
  return (
    <details open={open}>
      <summary>{summary ?? 'JSON'}</summary>
      <pre>{JSON.stringify(value, null, 2)}</pre>
    </details>
  );
}

/** How an attempt ended, in words: the status code, or the error. */
export function attemptOutcome(attempt: { statusCode: number | null; error: string | null }): string {
  if (attempt.statusCode === null) return attempt.error ?? 'no answer';
  // "non-2xx answer 500" says no more than "HTTP 500"; a redirect's error says why it failed.
  return attempt.error === null || attempt.error.startsWith('non-2xx') ? `HTTP ${attempt.statusCode}` : `HTTP ${attempt.statusCode} · ${attempt.error}`;
}
