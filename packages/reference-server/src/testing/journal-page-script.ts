// The script of the journal page (an inline <script> allowed by its hash in the page's CSP). Plain
// JavaScript, no build step. Everything it shows comes from requests, so it renders with textContent
// only, never as HTML. It reads the control token from the URL's `#token=` once, keeps it in
// sessionStorage, removes it from the address bar, and sends it with every control-route fetch.
export const JOURNAL_PAGE_SCRIPT = String.raw`
'use strict';
const TOKEN_HEADER = 'x-parley-control-token';
const TOKEN_KEY = 'parley-control-token';
// The control routes sit next to the page: /_parley/ui or /_parley/ui/ -> /_parley
const base = location.pathname.replace(/\/ui\/?$/, '');
const $ = (id) => document.getElementById(id);
const el = (tag, props = {}, ...children) => {
  const node = Object.assign(document.createElement(tag), props);
  for (const child of children) if (child !== undefined && child !== null) node.append(child);
  return node;
};

function readToken() {
  const fromHash = new URLSearchParams(location.hash.slice(1)).get('token');
  if (fromHash !== null) history.replaceState(null, '', location.pathname + location.search);
  try {
    if (fromHash) sessionStorage.setItem(TOKEN_KEY, fromHash);
    return fromHash || sessionStorage.getItem(TOKEN_KEY);
  } catch {
    return fromHash; // no storage: the token lasts as long as this page
  }
}
const token = readToken();

async function getJson(path) {
  const response = await fetch(base + path, {
    headers: token ? { [TOKEN_HEADER]: token } : {},
    cache: 'no-store',
  });
  if (response.status === 401 || response.status === 403) {
    throw new Error('The control routes refused this page (HTTP ' + response.status + '). ' +
      'Open it with the address the server printed, the one ending in #token=...');
  }
  if (!response.ok) throw new Error('GET ' + base + path + ' answered HTTP ' + response.status);
  return response.json();
}

const state = { entries: [], sessions: [], filters: { session: '', status: '' } };

const pad = (n, width) => String(n).padStart(width, '0');
const clockTime = (ms) => {
  const d = new Date(ms);
  return pad(d.getUTCHours(), 2) + ':' + pad(d.getUTCMinutes(), 2) + ':' + pad(d.getUTCSeconds(), 2) +
    '.' + pad(d.getUTCMilliseconds(), 3);
};
const isoTime = (ms) => (Number.isFinite(ms) ? new Date(ms).toISOString() : String(ms));
const pretty = (value) => (typeof value === 'string' ? value : JSON.stringify(value, null, 2));
// A fault as the x-parley-fault header would say it: status=503, latencyMs=250, drop
const faultText = (fault) => Object.entries(fault)
  .map(([key, value]) => (value === true ? key : key + '=' + (typeof value === 'object' ? JSON.stringify(value) : value)))
  .join(', ');
const shortSession = (id) => (id && id.length > 14 ? id.slice(0, 13) + '…' : id || '');

function duration(entry) {
  if (entry.durationMs === undefined) return entry.response ? 'streaming' : '…';
  return entry.durationMs < 1000 ? entry.durationMs + ' ms' : (entry.durationMs / 1000).toFixed(2) + ' s';
}

function statusClass(entry) {
  const r = entry.response;
  if (!r) return 'status-pending';
  if (r.status === 0) return 'status-dropped';
  return 'status-' + Math.floor(r.status / 100) + 'xx';
}

function matchesStatus(entry, filter) {
  const r = entry.response;
  if (filter === '') return true;
  if (filter === 'errors') return !!r && (r.status === 0 || r.status >= 400 || r.error !== undefined);
  if (filter === 'in-progress') return entry.durationMs === undefined;
  return !!r && statusClass(entry) === 'status-' + filter;
}

function matchesSession(id, filter) {
  return filter === '' || (filter === '-' ? id === undefined : id === filter);
}

function replySummary(r) {
  if (!r) return '';
  if (r.error) return r.error.code + ': ' + r.error.message;
  const parts = [];
  if (r.text) parts.push(r.text);
  if (r.pendingTools && r.pendingTools.length > 0) parts.push('waits for ' + r.pendingTools.join(', '));
  if (r.stopReason) parts.push('[' + r.stopReason + ']');
  if (r.events !== undefined) parts.push('(' + r.events + ' events' + (r.complete ? '' : ', incomplete') + ')');
  if (parts.length === 0 && r.body !== undefined) parts.push(typeof r.body === 'string' ? r.body : JSON.stringify(r.body));
  return parts.join(' ');
}

const blockText = (block) =>
  block.type === 'text' ? block.text
  : block.type === 'tool_use' ? 'tool_use ' + block.name + ' ' + JSON.stringify(block.input)
  : block.type === 'tool_result' ? 'tool_result ' + JSON.stringify(block.content) + (block.is_error ? ' (error)' : '')
  : JSON.stringify(block);

function renderSessions() {
  const root = $('sessions');
  root.replaceChildren();
  root.className = '';
  const shown = state.sessions.filter((s) => matchesSession(s.sessionId, state.filters.session));
  if (shown.length === 0) root.append(el('p', { className: 'muted', textContent: 'No sessions.' }));
  for (const s of shown) {
    const box = el('div', { className: 'session' });
    box.dataset.sessionId = s.sessionId;
    box.append(el('div', {}, el('strong', { className: 'mono', textContent: s.sessionId }),
      ' user ' + s.user + (s.agentId ? ', agent ' + s.agentId : '') + (s.busy ? ', replying...' : '')));
    const list = el('ol', { start: 0 });
    for (const m of s.messages) {
      const item = el('li', { className: m.deletedAt === null ? 'message' : 'message retracted' });
      item.append(el('strong', { textContent: m.role + ': ' }), m.content.map(blockText).join('\n'));
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

function renderSessionOptions() {
  const select = $('filter-session');
  const ids = new Set(state.sessions.map((s) => s.sessionId));
  for (const e of state.entries) if (e.sessionId !== undefined) ids.add(e.sessionId);
  const current = state.filters.session;
  if (current !== '' && current !== '-') ids.add(current);
  select.replaceChildren(el('option', { value: '', textContent: 'All sessions' }),
    el('option', { value: '-', textContent: 'No session' }),
    ...[...ids].sort().map((id) => el('option', { value: id, textContent: id })));
  select.value = current;
}

function renderJournal() {
  const body = document.querySelector('#journal tbody');
  const { session, status } = state.filters;
  const shown = state.entries.filter((e) => matchesSession(e.sessionId, session) && matchesStatus(e, status));
  body.replaceChildren();
  for (const e of shown.slice().reverse()) {
    const r = e.response;
    const request = el('td', { className: 'request' }, el('span', { className: 'method', textContent: e.method }),
      e.path + e.query);
    const row = el('tr', { className: 'entry ' + statusClass(e), tabIndex: 0 },
      el('td', { className: 'seq', textContent: String(e.seq) }),
      el('td', { className: 'time', textContent: clockTime(e.time), title: isoTime(e.time) }),
      el('td', { className: 'duration', textContent: duration(e) }),
      request,
      el('td', { className: 'user', textContent: e.user ?? '' }),
      el('td', { className: 'session-id', textContent: shortSession(e.sessionId), title: e.sessionId ?? '' }),
      el('td', { className: 'status', textContent: r ? String(r.status) : '...' }),
      el('td', {}, el('div', { className: 'reply', textContent: replySummary(r) })),
      el('td', { className: 'fault', textContent: e.fault ? faultText(e.fault) : '' }));
    row.dataset.seq = String(e.seq);
    body.append(row);
  }
  $('count').textContent = shown.length + ' of ' + state.entries.length + ' requests';
  $('journal-empty').textContent = shown.length === 0 ? 'No requests' + (state.entries.length > 0 ? ' match the filters.' : ' yet.') : '';
}

function fact(list, name, value) {
  if (value === undefined || value === '') return;
  list.append(el('dt', { textContent: name }), el('dd', { textContent: value }));
}

function responseText(r) {
  if (!r) return 'No response yet.';
  if (r.status === 0) return 'The connection was dropped before any response.';
  const lines = ['HTTP ' + r.status + (r.complete ? '' : ' (incomplete)')];
  if (r.events !== undefined) {
    lines.push('Streamed: ' + r.events + ' events. The journal keeps what they said, not the events:', '');
    lines.push(pretty({ text: r.text, stopReason: r.stopReason, pendingTools: r.pendingTools, error: r.error }));
  } else if (r.body !== undefined) {
    lines.push('', pretty(r.body));
    if (r.bodyTruncated) lines.push('', '(truncated: the journal keeps the first 64 KiB)');
  } else lines.push('', '(no body)');
  return lines.join('\n');
}

function showDetail(seq) {
  const e = state.entries.find((entry) => entry.seq === seq);
  if (!e) return;
  for (const row of document.querySelectorAll('tr.entry.selected')) row.classList.remove('selected');
  document.querySelector('tr.entry[data-seq="' + seq + '"]')?.classList.add('selected');
  $('detail-title').textContent = '#' + e.seq + ' ' + e.method + ' ' + e.path + e.query;
  const facts = $('detail-facts');
  facts.replaceChildren();
  fact(facts, 'Request id', e.requestId);
  fact(facts, 'Time', isoTime(e.time));
  fact(facts, 'Duration', duration(e));
  fact(facts, 'User', e.user);
  fact(facts, 'Session', e.sessionId);
  fact(facts, 'Status', e.response ? String(e.response.status) : '...');
  fact(facts, 'Fault', e.fault ? faultText(e.fault) : undefined);
  // The checking proxy's findings: one line per protocol violation, where and what was wrong.
  fact(facts, 'Protocol violations', e.violations ? e.violations.map((v) =>
    v.in + ' ' + (v.path === '' ? '(body)' : v.path) + ': expected ' + v.expected + ', got ' + v.got).join('\n')
    : undefined);
  $('detail-request').textContent = e.body === undefined ? '(no body read)'
    : pretty(e.body) + (e.bodyTruncated ? '\n\n(truncated: the journal keeps the first 64 KiB)' : '');
  $('detail-response').textContent = responseText(e.response);
  $('detail-entry').textContent = JSON.stringify(e, null, 2);
  const dialog = $('detail');
  if (!dialog.open) dialog.showModal();
}

function render() {
  renderSessionOptions();
  renderJournal();
  renderSessions();
}

async function refresh() {
  try {
    const [sessions, journal] = await Promise.all([getJson('/sessions'), getJson('/journal')]);
    state.sessions = sessions.sessions;
    state.entries = journal.entries;
    render();
    $('error').textContent = '';
    $('updated').textContent = 'updated ' + new Date().toLocaleTimeString();
    document.body.dataset.loaded = 'true';
  } catch (error) {
    $('error').textContent = 'Could not load: ' + (error instanceof Error ? error.message : String(error));
    document.body.dataset.error = 'true';
  }
}

$('refresh').addEventListener('click', () => refresh());
let timer;
$('auto').addEventListener('change', (event) => {
  clearInterval(timer);
  if (event.target.checked) timer = setInterval(refresh, 2000);
});
for (const name of ['session', 'status']) {
  $('filter-' + name).addEventListener('change', (event) => {
    state.filters[name] = event.target.value;
    render();
  });
}
const rows = document.querySelector('#journal tbody');
const rowSeq = (event) => Number(event.target.closest('tr.entry')?.dataset.seq);
rows.addEventListener('click', (event) => showDetail(rowSeq(event)));
rows.addEventListener('keydown', (event) => {
  if (event.key === 'Enter') showDetail(rowSeq(event));
});
$('detail-close').addEventListener('click', () => $('detail').close());
refresh();
`;
