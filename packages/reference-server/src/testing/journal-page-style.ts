// The stylesheet of the journal page (an inline <style> allowed by its hash in the page's CSP).
export const JOURNAL_PAGE_STYLE = `
:root { --ok: #1a7f37; --redirect: #0969da; --client: #9a6700; --server: #cf222e; --dropped: #8250df;
  --muted: #656d76; --line: #d0d7de; --alt: #f6f8fa; --mono: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, sans-serif; margin: 0; color: #1f2328; background: #fff; }
.top { position: sticky; top: 0; z-index: 1; background: #fff; border-bottom: 1px solid var(--line);
  padding: .5rem 1.5rem; display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: center; }
h1 { font-size: 1.1rem; margin: 0 .5rem 0 0; }
main { padding: 0 1.5rem 2rem; }
h2 { font-size: 1rem; margin: 1.25rem 0 .5rem; }
label { display: inline-flex; gap: .35rem; align-items: center; }
select, button { font: inherit; }
select { max-width: 16rem; }
.muted { color: var(--muted); }
.mono { font-family: var(--mono); font-size: 12.5px; }
#error { color: var(--server); font-weight: 600; margin: .75rem 0 0; white-space: pre-wrap; }
#error:empty { display: none; }
table { border-collapse: collapse; width: 100%; table-layout: fixed; }
th, td { border-bottom: 1px solid var(--line); padding: .3rem .5rem; text-align: left; vertical-align: top;
  overflow-wrap: anywhere; }
th { background: var(--alt); font-weight: 600; }
col.col-seq { width: 3rem; } col.col-time { width: 7.5rem; } col.col-duration { width: 5.5rem; }
col.col-request { width: 20%; } col.col-user { width: 5rem; } col.col-session { width: 8.5rem; }
col.col-status { width: 4.5rem; } col.col-fault { width: 7rem; }
td.seq, td.time, td.duration, td.session-id, td.fault { font-family: var(--mono); font-size: 12.5px; }
td.duration { text-align: right; }
tr.entry { cursor: pointer; }
tr.entry:hover, tr.entry:focus-visible { background: #f3f8ff; outline: none; }
tr.entry.selected { background: #ddf4ff; }
tr.entry td:first-child { border-left: 3px solid transparent; }
.method { font-weight: 600; margin-right: .35rem; }
.reply { display: -webkit-box; -webkit-line-clamp: 3; -webkit-box-orient: vertical; overflow: hidden;
  white-space: pre-wrap; }
td.status { font-weight: 700; font-family: var(--mono); }
.status-2xx td.status { color: var(--ok); }
.status-3xx td.status { color: var(--redirect); }
.status-4xx td.status { color: var(--client); }
.status-4xx td:first-child { border-left-color: var(--client); }
.status-5xx td.status { color: var(--server); }
.status-5xx td:first-child { border-left-color: var(--server); }
.status-dropped td.status { color: var(--dropped); }
.status-dropped td:first-child { border-left-color: var(--dropped); }
.status-pending td.status { color: var(--muted); }
#journal-empty:empty { display: none; }
.session { border: 1px solid var(--line); border-radius: 6px; padding: .5rem 1rem; margin: .5rem 0; }
.session ol { margin: .3rem 0; padding-left: 2rem; }
.message { white-space: pre-wrap; overflow-wrap: anywhere; }
.retracted { opacity: .5; text-decoration: line-through; }
dialog { width: min(72rem, 95vw); max-height: 90vh; padding: 0; border: 1px solid var(--line); border-radius: 8px; }
dialog::backdrop { background: rgba(31, 35, 40, .35); }
dialog .bar { position: sticky; top: 0; display: flex; justify-content: space-between; align-items: center;
  gap: 1rem; padding: .6rem 1rem; border-bottom: 1px solid var(--line); background: #fff; }
dialog h2 { margin: 0; overflow-wrap: anywhere; }
dialog h3 { font-size: .95rem; margin: 1rem 0 .35rem; }
.detail { padding: .25rem 1rem 1rem; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: .2rem 1rem; margin: .5rem 0; }
dt { color: var(--muted); } dd { margin: 0; overflow-wrap: anywhere; white-space: pre-line; font-family: var(--mono); font-size: 12.5px; }
pre { margin: 0; white-space: pre-wrap; overflow-wrap: anywhere; background: var(--alt); padding: .5rem .75rem;
  border-radius: 4px; font: 12.5px/1.45 var(--mono); }
`;
