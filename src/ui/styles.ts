/**
 * The one stylesheet of every page the emulator serves to people (D11): inline in
 * each page, so there is no build step, no CDN and nothing to fetch.
 */
export const STYLES = `
:root {
  --bg: #f5f6f8; --panel: #fff; --text: #1b2230; --muted: #667085; --line: #e4e7ec;
  --accent: #4f46e5; --accent-soft: #eef2ff;
  --ok: #067647; --ok-bg: #ecfdf3; --ok-line: #abefc6;
  --warn: #b54708; --warn-bg: #fffaeb; --warn-line: #fedf89;
  --bad: #b42318; --bad-bg: #fef3f2; --bad-line: #fecdca;
  --info: #175cd3; --info-bg: #eff8ff; --info-line: #b2ddff;
  --mono: ui-monospace, SFMono-Regular, "DejaVu Sans Mono", Menlo, Consolas, monospace;
}
* { box-sizing: border-box; }
[hidden] { display: none !important; }
body { margin: 0; font: 14px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif; background: var(--bg); color: var(--text); }
a { color: var(--accent); text-decoration: none; }
a:hover { text-decoration: underline; }
header.top { background: #111827; color: #d1d5db; position: sticky; top: 0; z-index: 10; }
.top-inner { max-width: 1240px; margin: 0 auto; padding: 0 24px; display: flex; align-items: center; gap: 20px; min-height: 56px; flex-wrap: wrap; }
.brand { font-weight: 700; color: #fff; font-size: 16px; letter-spacing: .2px; }
.brand small { color: #a5b4fc; font-weight: 500; margin-left: 6px; font-size: 13px; }
.brand:hover { text-decoration: none; }
.top-section { color: #d1d5db; font-size: 13px; border-left: 1px solid #374151; padding-left: 14px; }
nav.main { display: flex; gap: 2px; flex-wrap: wrap; }
nav.main a { color: #cbd5e1; padding: 6px 10px; border-radius: 6px; font-size: 13.5px; }
nav.main a:hover { background: #1f2937; color: #fff; text-decoration: none; }
nav.main a[aria-current="page"] { background: #374151; color: #fff; }
.clockbar { margin-left: auto; display: flex; align-items: center; gap: 10px; font-size: 13px; }
.clockbar .label { color: #9ca3af; text-transform: uppercase; font-size: 11px; letter-spacing: .06em; }
.clockbar time { font-family: var(--mono); color: #fff; font-size: 13px; }
.clockbar .speed { color: #a5b4fc; font-family: var(--mono); }
.clockbar form { display: flex; gap: 4px; margin: 0; }
.clockbar .btn { background: #1f2937; border-color: #374151; color: #e5e7eb; padding: 3px 9px; font-size: 12px; }
.clockbar .btn:hover { background: #374151; }
main { max-width: 1240px; margin: 0 auto; padding: 24px; }
main.narrow { max-width: 640px; padding-top: 48px; }
h1 { font-size: 22px; margin: 0 0 4px; font-weight: 650; }
.subtitle { color: var(--muted); margin: 0 0 20px; }
.crumbs { font-size: 13px; color: var(--muted); margin-bottom: 6px; }
.crumbs a { color: var(--muted); }
.card { background: var(--panel); border: 1px solid var(--line); border-radius: 10px; padding: 16px 20px; margin-bottom: 20px; box-shadow: 0 1px 2px rgba(16, 24, 40, .04); }
.card > h2 { font-size: 15px; margin: 0 0 12px; display: flex; align-items: center; gap: 10px; font-weight: 650; }
.card > h2 .actions { margin-left: auto; display: flex; gap: 8px; }
.card > p:first-of-type { margin-top: 0; }
.table-wrap { overflow-x: auto; }
table { width: 100%; border-collapse: collapse; }
th { text-align: left; font-weight: 600; color: var(--muted); font-size: 11.5px; text-transform: uppercase; letter-spacing: .05em; padding: 8px 10px; border-bottom: 1px solid var(--line); white-space: nowrap; }
td { padding: 9px 10px; border-bottom: 1px solid var(--line); vertical-align: top; }
tbody tr:last-child td { border-bottom: 0; }
tbody tr:hover { background: #fafbfc; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
.mono, code { font-family: var(--mono); font-size: 12.5px; }
.nowrap { white-space: nowrap; }
.truncate { max-width: 320px; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; display: inline-block; vertical-align: bottom; }
.muted { color: var(--muted); }
.badge { display: inline-block; padding: 1px 9px; border-radius: 999px; font-size: 12px; font-weight: 600; background: #f2f4f7; color: #344054; border: 1px solid #e4e7ec; white-space: nowrap; }
.badge.ok { background: var(--ok-bg); color: var(--ok); border-color: var(--ok-line); }
.badge.warn { background: var(--warn-bg); color: var(--warn); border-color: var(--warn-line); }
.badge.bad { background: var(--bad-bg); color: var(--bad); border-color: var(--bad-line); }
.badge.info { background: var(--info-bg); color: var(--info); border-color: var(--info-line); }
.badge.accent { background: var(--accent-soft); color: var(--accent); border-color: #c7d2fe; }
.btn { display: inline-flex; align-items: center; gap: 6px; border: 1px solid #d0d5dd; background: #fff; color: var(--text); border-radius: 7px; padding: 5px 12px; font: inherit; font-size: 13px; font-weight: 550; cursor: pointer; line-height: 1.4; white-space: nowrap; }
.btn:hover { background: #f9fafb; text-decoration: none; }
.btn:disabled { opacity: .6; cursor: progress; }
.btn.primary { background: var(--accent); border-color: var(--accent); color: #fff; }
.btn.primary:hover { background: #4338ca; }
.btn.danger { color: var(--bad); border-color: var(--bad-line); }
.btn.danger:hover { background: var(--bad-bg); }
.btn.small { padding: 2px 9px; font-size: 12px; }
form.inline { display: inline; margin: 0; }
.toolbar { display: flex; gap: 8px; align-items: center; flex-wrap: wrap; margin-bottom: 12px; }
.toolbar .grow { flex: 1; }
input, select { height: 32px; }
input[type="checkbox"], input[type="radio"] { height: auto; margin: 0; padding: 0; accent-color: var(--accent); }
label.check { display: inline-flex; align-items: center; gap: 8px; font-size: 13px; cursor: pointer; }
input, select, textarea { font: inherit; font-size: 13px; padding: 5px 9px; border: 1px solid #d0d5dd; border-radius: 7px; background: #fff; color: var(--text); }
input:focus, select:focus, textarea:focus { outline: 2px solid #c7d2fe; border-color: var(--accent); }
textarea { width: 100%; font-family: var(--mono); font-size: 12.5px; min-height: 160px; }
label.field { display: flex; flex-direction: column; gap: 3px; font-size: 12px; color: var(--muted); }
.form-row { display: flex; gap: 10px; align-items: flex-end; flex-wrap: wrap; }
.form-row.spaced { margin: 16px 0; }
.form-row > form { margin: 0; }
.stats { display: grid; grid-template-columns: repeat(auto-fit, minmax(170px, 1fr)); gap: 16px; margin-bottom: 20px; }
.stat { background: var(--panel); border: 1px solid var(--line); border-radius: 10px; padding: 14px 18px; color: inherit; display: block; }
.stat:hover { text-decoration: none; border-color: #c7d2fe; }
.stat .label { color: var(--muted); font-size: 11.5px; text-transform: uppercase; letter-spacing: .05em; }
.stat .value { font-size: 26px; font-weight: 700; font-variant-numeric: tabular-nums; }
.stat.alert .value { color: var(--bad); }
.flash { padding: 10px 14px; border-radius: 8px; margin-bottom: 16px; border: 1px solid; }
.flash.ok { background: var(--ok-bg); color: var(--ok); border-color: var(--ok-line); }
.flash.error { background: var(--bad-bg); color: var(--bad); border-color: var(--bad-line); }
.flash.warn { background: var(--warn-bg); color: var(--warn); border-color: var(--warn-line); }
.flash p { margin: 10px 0 0; }
.flash > :first-child { margin-top: 0; }
.flash pre { margin-top: 8px; white-space: pre-wrap; overflow-wrap: anywhere; }
.wrap-anywhere { overflow-wrap: anywhere; min-width: 0; }
.price { font-size: 28px; font-weight: 700; font-variant-numeric: tabular-nums; margin: 0 0 12px; }
.price .muted { font-size: 14px; font-weight: 500; }
.empty { color: var(--muted); padding: 18px 0; text-align: center; }
dl.props { display: grid; grid-template-columns: 150px 1fr; gap: 6px 16px; margin: 0; }
dl.props dt { color: var(--muted); }
dl.props dd { margin: 0; min-width: 0; overflow-wrap: anywhere; }
pre:empty { display: none; }
pre.wrap { white-space: pre-wrap; overflow-wrap: anywhere; }
pre { background: #0f172a; color: #e2e8f0; padding: 12px 14px; border-radius: 8px; overflow: auto; font-family: var(--mono); font-size: 12.5px; margin: 0; max-height: 420px; }
td pre { max-width: 560px; white-space: pre-wrap; overflow-wrap: anywhere; }
details summary { cursor: pointer; color: var(--muted); }
details[open] summary { margin-bottom: 6px; }
.grid2 { display: grid; grid-template-columns: 1fr 1fr; gap: 20px; margin-bottom: 20px; }
.grid2.wide-right { grid-template-columns: 2fr 3fr; }
.grid2 > * { min-width: 0; }
.grid2 > .card { margin-bottom: 0; }
.stack { display: flex; flex-direction: column; gap: 20px; margin-bottom: 20px; }
.pager { display: flex; gap: 8px; align-items: center; justify-content: flex-end; margin-top: 12px; color: var(--muted); font-size: 13px; }
.btn[aria-disabled="true"] { opacity: .45; pointer-events: none; }
footer.foot { max-width: 1240px; margin: 0 auto; padding: 0 24px 32px; color: var(--muted); font-size: 12px; }
@media (max-width: 900px) { .grid2 { grid-template-columns: 1fr; } .clockbar { margin-left: 0; } }
@media (max-width: 560px) { dl.props { grid-template-columns: 1fr; gap: 0 16px; } dl.props dd { margin-bottom: 6px; } main { padding: 16px; } }
`;
