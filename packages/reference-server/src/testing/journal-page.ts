// The page of `GET /_parley/ui`: plain HTML and a script, no build step. It reads the control
// routes of the same origin with the control token of its URL's fragment and renders with
// textContent only (bodies are user data).
export const JOURNAL_PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Parley reference server</title>
<style>
  body { font: 14px/1.4 system-ui, sans-serif; margin: 1rem 2rem; color: #222; }
  h1 { font-size: 1.3rem; } h2 { font-size: 1.1rem; margin-top: 2rem; }
  table { border-collapse: collapse; width: 100%; }
  td, th { border-bottom: 1px solid #ddd; padding: .25rem .5rem; text-align: left; vertical-align: top; }
  pre { margin: 0; white-space: pre-wrap; word-break: break-word; max-height: 12rem; overflow: auto; }
  .session { border: 1px solid #ccc; border-radius: 6px; padding: .5rem 1rem; margin: .5rem 0; }
  .retracted { opacity: .5; text-decoration: line-through; }
  .status-error { color: #b00; } .muted { color: #777; }
</style>
</head>
<body>
<h1>Parley reference server <button id="refresh">Refresh</button> <span id="updated" class="muted"></span></h1>
<h2>Sessions</h2>
<div id="sessions" class="muted">Loading...</div>
<h2>Journal</h2>
<table id="journal"><thead><tr><th>#</th><th>Request</th><th>User</th><th>Status</th><th>Reply</th><th>Fault</th></tr></thead><tbody></tbody></table>
<script>
const el = (tag, props = {}, ...children) => {
  const node = Object.assign(document.createElement(tag), props);
  for (const child of children) node.append(child);
  return node;
};
const blockText = (block) =>
  block.type === 'text' ? block.text
  : block.type === 'tool_use' ? 'tool_use ' + block.name + ' ' + JSON.stringify(block.input)
  : block.type === 'tool_result' ? 'tool_result ' + JSON.stringify(block.content) + (block.is_error ? ' (error)' : '')
  : JSON.stringify(block);

function renderSessions(sessions) {
  const root = document.getElementById('sessions');
  root.replaceChildren();
  root.className = '';
  if (sessions.length === 0) root.append(el('p', { className: 'muted', textContent: 'No sessions.' }));
  for (const s of sessions) {
    const box = el('div', { className: 'session' });
    box.dataset.sessionId = s.sessionId;
    box.append(el('div', {}, el('strong', { textContent: s.sessionId }),
      ' user ' + s.user + (s.agentId ? ', agent ' + s.agentId : '') + (s.busy ? ', replying...' : '')));
    const list = el('ol', { start: 0 });
    for (const m of s.messages) {
      const item = el('li', { className: m.deletedAt === null ? 'message' : 'message retracted' });
      item.append(el('strong', { textContent: m.role + ': ' }), m.content.map(blockText).join('\\n'));
      list.append(item);
    }
    box.append(list);
    if (s.toolCalls.length > 0) {
      const calls = el('ul');
      for (const t of s.toolCalls) {
        calls.append(el('li', { className: 'tool-call', textContent: t.name + ' ' + t.requestId + ': ' + t.state }));
      }
      box.append(el('div', { textContent: 'Tool calls' }), calls);
    }
    root.append(box);
  }
}

function renderJournal(entries) {
  const body = document.querySelector('#journal tbody');
  body.replaceChildren();
  for (const e of entries.slice().reverse()) {
    const r = e.response;
    const status = r ? String(r.status) : '...';
    const reply = !r ? '' : r.error ? r.error.code + ': ' + r.error.message
      : (r.text ?? '') + (r.stopReason ? ' [' + r.stopReason + ']' : '') + (r.events !== undefined ? ' (' + r.events + ' events' + (r.complete ? '' : ', incomplete') + ')' : '');
    const request = el('td', {}, e.method + ' ' + e.path + e.query);
    if (e.body !== undefined) request.append(el('pre', { textContent: JSON.stringify(e.body, null, 1) }));
    body.append(el('tr', { className: 'entry' },
      el('td', { textContent: String(e.seq) }), request,
      el('td', { textContent: e.user ?? '' }),
      el('td', { textContent: status, className: r && (r.status >= 400 || r.status === 0) ? 'status-error' : '' }),
      el('td', {}, el('pre', { textContent: reply })),
      el('td', { textContent: e.fault ? JSON.stringify(e.fault) : '' })));
  }
}

// The control token comes in the URL's fragment (#token=...), which never reaches the server.
const token = new URLSearchParams(location.hash.slice(1)).get('token') ?? '';
async function load(route) {
  const r = await fetch('/_parley/' + route, { headers: { 'x-parley-control-token': token } });
  const body = await r.json();
  if (!r.ok) throw new Error(body.error.message + ' (open the page URL the server printed, with #token=...)');
  return body;
}

async function refresh() {
  const [sessions, journal] = await Promise.all([load('sessions'), load('journal')]);
  renderSessions(sessions.sessions);
  renderJournal(journal.entries);
  document.getElementById('updated').textContent = 'updated ' + new Date().toLocaleTimeString();
  document.body.dataset.loaded = 'true';
}
document.getElementById('refresh').addEventListener('click', () => refresh());
refresh().catch((error) => { document.getElementById('sessions').textContent = 'Failed: ' + error; });
</script>
</body>
</html>
`;
