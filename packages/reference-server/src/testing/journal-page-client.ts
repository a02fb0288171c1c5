// The journal page's script: runs in the browser, never on the server. It is bundled with what it
// imports into journal-page-script.ts (`pnpm journal-page`, scripts/journal-page-script.ts), which
// the page inlines as one <script>, allowed by its hash in the page's CSP. Everything it shows comes from requests, so it renders with
// textContent only, never as HTML. It reads the control token from the URL's `#token=` once, keeps it
// in sessionStorage, removes it from the address bar, and sends it with every control-route fetch.
import type { JournalEntry } from './journal-entry.js';
import {
  blockText,
  clockTime,
  duration,
  entryFault,
  isoTime,
  matchesSession,
  matchesStatus,
  pretty,
  replySummary,
  responseText,
  shortSession,
  statusClass,
  violationText,
} from './journal-page-text.js';
import type { SessionSnapshot } from './session-snapshot.js';

interface Filters {
  session: string;
  status: string;
}

const TOKEN_HEADER = 'x-parley-control-token';
const TEST_ID_HEADER = 'x-parley-test-id';
// `?testId=...`: the page shows that test's scope (its sessions and journal) instead of the default one.
const testId = new URLSearchParams(location.search).get('testId');
const TOKEN_KEY = 'parley-control-token';
// The control routes sit next to the page: /_parley/ui or /_parley/ui/ -> /_parley
const base = location.pathname.replace(/\/ui\/?$/, '');

function $<T extends HTMLElement = HTMLElement>(id: string): T {
  const node = document.getElementById(id);
  if (node === null) throw new Error(`The page has no #${id}`);
  return node as T;
}

function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Partial<HTMLElementTagNameMap[K]> = {},
  ...children: Array<Node | string | undefined>
): HTMLElementTagNameMap[K] {
  const node = Object.assign(document.createElement(tag), props);
  for (const child of children) if (child !== undefined) node.append(child);
  return node;
}

function readToken(): string | null {
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

async function getJson<T>(path: string): Promise<T> {
  const response = await fetch(base + path, {
    headers: {
      ...(token ? { [TOKEN_HEADER]: token } : {}),
      ...(testId ? { [TEST_ID_HEADER]: testId } : {}),
    },
    cache: 'no-store',
  });
  if (response.status === 401 || response.status === 403) {
    throw new Error(
      `The control routes refused this page (HTTP ${response.status}). ` +
        'Open it with the address the server printed, the one ending in #token=...',
    );
  }
  if (!response.ok) throw new Error(`GET ${base}${path} answered HTTP ${response.status}`);
  return (await response.json()) as T;
}

const state: { entries: JournalEntry[]; sessions: SessionSnapshot[]; filters: Filters } = {
  entries: [],
  sessions: [],
  filters: { session: '', status: '' },
};

function renderSessions(): void {
  const root = $('sessions');
  root.replaceChildren();
  root.className = '';
  const shown = state.sessions.filter((s) => matchesSession(s.sessionId, state.filters.session));
  if (shown.length === 0) root.append(el('p', { className: 'muted', textContent: 'No sessions.' }));
  for (const s of shown) {
    const box = el('div', { className: 'session' });
    box.dataset.sessionId = s.sessionId;
    box.append(
      el(
        'div',
        {},
        el('strong', { className: 'mono', textContent: s.sessionId }),
        ` user ${s.user}${s.agentId ? `, agent ${s.agentId}` : ''}${s.busy ? ', replying...' : ''}`,
      ),
    );
    const list = el('ol', { start: 0 });
    for (const m of s.messages) {
      const item = el('li', { className: m.deletedAt === null ? 'message' : 'message retracted' });
      item.append(el('strong', { textContent: `${m.role}: ` }), m.content.map(blockText).join('\n'));
      list.append(item);
    }
    box.append(list);
    if (s.toolCalls.length > 0) {
      const calls = el('ul');
      for (const t of s.toolCalls) {
        calls.append(
          el('li', { className: 'tool-call', textContent: `${t.name} ${t.requestId}: ${t.state}` }),
        );
      }
      box.append(el('div', { textContent: 'Tool calls' }), calls);
    }
    root.append(box);
  }
}

function renderSessionOptions(): void {
  const select = $<HTMLSelectElement>('filter-session');
  const ids = new Set(state.sessions.map((s) => s.sessionId));
  for (const e of state.entries) if (e.sessionId !== undefined) ids.add(e.sessionId);
  const current = state.filters.session;
  if (current !== '' && current !== '-') ids.add(current);
  select.replaceChildren(
    el('option', { value: '', textContent: 'All sessions' }),
    el('option', { value: '-', textContent: 'No session' }),
    ...[...ids].sort().map((id) => el('option', { value: id, textContent: id })),
  );
  select.value = current;
}

function renderJournal(): void {
  const body = $('journal').querySelector('tbody');
  if (body === null) return;
  const { session, status } = state.filters;
  const shown = state.entries.filter((e) => matchesSession(e.sessionId, session) && matchesStatus(e, status));
  body.replaceChildren();
  for (const e of shown.slice().reverse()) {
    const r = e.response;
    const request = el(
      'td',
      { className: 'request' },
      el('span', { className: 'method', textContent: e.method }),
      e.path + e.query,
    );
    const row = el(
      'tr',
      { className: `entry ${statusClass(e)}`, tabIndex: 0 },
      el('td', { className: 'seq', textContent: String(e.seq) }),
      el('td', { className: 'time', textContent: clockTime(e.time), title: isoTime(e.time) }),
      el('td', { className: 'duration', textContent: duration(e) }),
      request,
      el('td', { className: 'user', textContent: e.user ?? '' }),
      el('td', { className: 'session-id', textContent: shortSession(e.sessionId), title: e.sessionId ?? '' }),
      el('td', { className: 'status', textContent: r ? String(r.status) : '...' }),
      el('td', {}, el('div', { className: 'reply', textContent: replySummary(r) })),
      el('td', { className: 'fault', textContent: entryFault(e) ?? '' }),
    );
    row.dataset.seq = String(e.seq);
    body.append(row);
  }
  $('count').textContent = `${shown.length} of ${state.entries.length} requests`;
  $('journal-empty').textContent =
    shown.length === 0 ? `No requests${state.entries.length > 0 ? ' match the filters.' : ' yet.'}` : '';
}

function fact(list: HTMLElement, name: string, value: string | undefined): void {
  if (value === undefined || value === '') return;
  list.append(el('dt', { textContent: name }), el('dd', { textContent: value }));
}

function showDetail(seq: number): void {
  const e = state.entries.find((entry) => entry.seq === seq);
  if (!e) return;
  for (const row of document.querySelectorAll('tr.entry.selected')) row.classList.remove('selected');
  document.querySelector(`tr.entry[data-seq="${seq}"]`)?.classList.add('selected');
  $('detail-title').textContent = `#${e.seq} ${e.method} ${e.path}${e.query}`;
  const facts = $('detail-facts');
  facts.replaceChildren();
  fact(facts, 'Request id', e.requestId);
  fact(facts, 'Time', isoTime(e.time));
  fact(facts, 'Duration', duration(e));
  fact(facts, 'User', e.user);
  fact(facts, 'Session', e.sessionId);
  fact(facts, 'Status', e.response ? String(e.response.status) : '...');
  fact(facts, 'Fault', entryFault(e));
  // The checking proxy's findings: one line per protocol violation, where and what was wrong.
  fact(facts, 'Protocol violations', e.violations?.map(violationText).join('\n'));
  $('detail-request').textContent =
    e.body === undefined
      ? '(no body read)'
      : pretty(e.body) + (e.bodyTruncated ? '\n\n(truncated: the journal keeps the first 64 KiB)' : '');
  $('detail-response').textContent = responseText(e.response);
  $('detail-entry').textContent = JSON.stringify(e, null, 2);
  const dialog = $<HTMLDialogElement>('detail');
  if (!dialog.open) dialog.showModal();
}

function render(): void {
  renderSessionOptions();
  renderJournal();
  renderSessions();
}

async function refresh(): Promise<void> {
  try {
    const [sessions, journal] = await Promise.all([
      getJson<{ sessions: SessionSnapshot[] }>('/sessions'),
      getJson<{ entries: JournalEntry[] }>('/journal'),
    ]);
    state.sessions = sessions.sessions;
    state.entries = journal.entries;
    render();
    $('error').textContent = '';
    $('updated').textContent = `updated ${new Date().toLocaleTimeString()}`;
    document.body.dataset.loaded = 'true';
  } catch (error) {
    $('error').textContent = `Could not load: ${error instanceof Error ? error.message : String(error)}`;
    document.body.dataset.error = 'true';
  }
}

$('refresh').addEventListener('click', () => refresh());
let timer: ReturnType<typeof setInterval> | undefined;
$<HTMLInputElement>('auto').addEventListener('change', (event) => {
  clearInterval(timer);
  if ((event.target as HTMLInputElement).checked) timer = setInterval(refresh, 2000);
});
for (const name of ['session', 'status'] as const) {
  $('filter-' + name).addEventListener('change', (event) => {
    state.filters[name] = (event.target as HTMLSelectElement).value;
    render();
  });
}
const rows = $('journal').querySelector('tbody') ?? $('journal');
const rowSeq = (event: Event) =>
  Number((event.target as Element).closest<HTMLElement>('tr.entry')?.dataset.seq);
rows.addEventListener('click', (event) => showDetail(rowSeq(event)));
rows.addEventListener('keydown', (event) => {
  if (event.key === 'Enter') showDetail(rowSeq(event));
});
$('detail-close').addEventListener('click', () => $<HTMLDialogElement>('detail').close());
void refresh();
