/**
 * The shell of every page the emulator shows to people: the dashboard (D11) and the
 * pages that share its look (the passkey demo, the payment provider's pages under /_provider).
 *
 * For another page: `c.html(<Layout title="Checkout" nav={false} section="Payment provider">…</Layout>)`.
 * `nav={false}` drops the dashboard's navigation and clock bar and centres a narrow column; the CSS classes
 * of src/ui/styles.ts (`card`, `btn primary`, `badge ok`, `flash error`, `form-row`,
 * `label.field`, `props`, …) and the components of src/ui/components.tsx are there to use.
 * Everything is server-rendered and escaped by hono/jsx; the small script only adds comfort
 * (a ticking clock, confirmations, no double submits): every page works without it.
 */
import { raw } from 'hono/html';
import type { Child } from 'hono/jsx';
import { STYLES } from './styles.js';

/** Where the dashboard lives. */
export const UI_BASE = '/_emulator/ui';

export type NavSection = 'overview' | 'webhooks' | 'dlq' | 'events' | 'control';

const NAV: Array<{ section: NavSection; href: string; label: string }> = [
  { section: 'overview', href: UI_BASE, label: 'Overview' },
  { section: 'webhooks', href: `${UI_BASE}/webhooks`, label: 'Webhooks' },
  { section: 'dlq', href: `${UI_BASE}/dlq`, label: 'DLQ' },
  { section: 'events', href: `${UI_BASE}/events`, label: 'Events' },
  { section: 'control', href: `${UI_BASE}/control`, label: 'Control' },
];

/** A one-line message after an action, shown at the top of the page it redirected to. */
export interface Flash {
  kind: 'ok' | 'error';
  message: string;
}

export interface ClockView {
  now: string;
  speed: number;
}

/** What every dashboard page gets from its route: where it is, the clock, a message. */
export interface PageFrame {
  here: string;
  clock: ClockView;
  flash?: Flash | undefined;
}

export interface LayoutProps {
  title: string;
  /** The dashboard section to highlight. */
  active?: NavSection | undefined;
  /** The dashboard's navigation and clock bar (default true); false for standalone pages. */
  nav?: boolean;
  /** Beside the brand, what part of the emulator this is (as "Payment provider · test mode"). */
  section?: string | undefined;
  /** The emulator clock, shown in the bar with its advance buttons. */
  clock?: ClockView | undefined;
  /** This page's path and query, where the clock buttons come back to. */
  here?: string | undefined;
  flash?: Flash | undefined;
  children?: Child;
}

/** Progressive enhancement only: the clock ticks, risky forms ask first, buttons are not pressed twice. */
const SCRIPT = `
(function () {
  var clock = document.querySelector('time[data-speed]');
  if (clock) {
    var base = Date.parse(clock.getAttribute('datetime')), speed = Number(clock.getAttribute('data-speed')) || 1, start = Date.now();
    setInterval(function () {
      var now = new Date(base + (Date.now() - start) * speed);
      clock.textContent = now.toISOString().replace('T', ' ').slice(0, 19) + ' UTC';
    }, speed >= 60 ? 250 : 1000);
  }
  document.addEventListener('submit', function (event) {
    var form = event.target, question = form.getAttribute('data-confirm');
    if (question && !window.confirm(question)) { event.preventDefault(); return; }
    var button = event.submitter;
    if (button) setTimeout(function () { button.disabled = true; }, 0);
  });
})();
`;

/** Emulator time as the dashboard shows it: `2026-11-21 10:00:00 UTC`. */
export function shortTime(iso: string): string {
  return `${iso.replace('T', ' ').slice(0, 19)} UTC`;
}

function ClockBar({ clock, here }: { clock: ClockView; here: string }) {
  return (
    <div class="clockbar" aria-label="Emulator clock">
      <span class="label">Emulator time</span>
      <time datetime={clock.now} data-speed={String(clock.speed)} id="emulator-now">
        {shortTime(clock.now)}
      </time>
      <span class="speed" title="Emulated seconds per real second">
        ×{clock.speed}
      </span>
      <form method="post" action={`${UI_BASE}/clock/advance`}>
        <input type="hidden" name="back" value={here} />
        {['1m', '1h', '1d'].map((by) => (
          <button class="btn" type="submit" name="by" value={by} title={`Advance the clock by ${by}, firing what comes due`}>
            +{by}
          </button>
        ))}
      </form>
    </div>
  );
}

export function Layout(props: LayoutProps) {
  const nav = props.nav ?? true;
  return (
    <>
      {raw('<!doctype html>')}
      <html lang="en">
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <title>{`${props.title} · svc emulator`}</title>
          <style dangerouslySetInnerHTML={{ __html: STYLES }} />
        </head>
        <body>
          <header class="top">
            <div class="top-inner">
              <a class="brand" href={UI_BASE}>
                svc<small>emulator</small>
              </a>
              {props.section !== undefined && <span class="top-section">{props.section}</span>}
              {nav && (
                <nav class="main">
                  {NAV.map((item) => (
                    <a href={item.href} aria-current={item.section === props.active ? 'page' : undefined}>
                      {item.label}
                    </a>
                  ))}
                </nav>
              )}
              {nav && props.clock && <ClockBar clock={props.clock} here={props.here ?? UI_BASE} />}
            </div>
          </header>
          <main class={nav ? undefined : 'narrow'}>
            {props.flash && (
              <div class={`flash ${props.flash.kind}`} role={props.flash.kind === 'error' ? 'alert' : 'status'}>
                {props.flash.message}
              </div>
            )}
            {props.children}
          </main>
          <footer class="foot">svc · the local emulator of the Wallet and Identity Service API · API under /v1 · control plane under /_emulator</footer>
          <script dangerouslySetInnerHTML={{ __html: SCRIPT }} />
        </body>
      </html>
    </>
  );
}
