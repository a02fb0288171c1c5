import type { Journal, JournalEntry, JournalFilter } from './journal.js';

/** How many matching requests `toHaveReceived` expects. */
export interface ReceivedOptions {
  /** Exactly this many. Default: at least one. */
  times?: number;
}

/** What the matcher was given: a server (`parley.server`), the helper's handle, or a journal. */
type Received =
  | { journal: Pick<Journal, 'entries'> }
  | { server: { journal: Pick<Journal, 'entries'> } }
  | Pick<Journal, 'entries'>;

const LISTED = 20;

/**
 * The `toHaveReceived` matcher's verdict: whether the journal holds requests matching `filter`
 * (`times` of them, when given), and a message that lists what it received instead.
 */
export function receivedVerdict(
  received: unknown,
  filter: JournalFilter,
  options: ReceivedOptions = {},
): { pass: boolean; message: (isNot: boolean) => string } {
  const journal = journalOf(received);
  if (options.times !== undefined && (!Number.isInteger(options.times) || options.times < 0)) {
    throw new TypeError(`toHaveReceived: times must be an integer >= 0, got ${options.times}`);
  }
  const all = journal.entries();
  const matching = journal.entries(filter);
  const pass = options.times === undefined ? matching.length > 0 : matching.length === options.times;
  const what = describeFilter(filter);
  const wanted = options.times === undefined ? 'at least once' : timesText(options.times);
  return {
    pass,
    message: (isNot) =>
      `expected the server ${isNot ? 'not ' : ''}to have received ${what} ${wanted}, ` +
      `it received it ${timesText(matching.length)}. ${listed(all)}`,
  };
}

function journalOf(received: unknown): Pick<Journal, 'entries'> {
  const value = received as Partial<Received> | null | undefined;
  if (value !== null && typeof value === 'object') {
    if ('entries' in value && typeof value.entries === 'function') return value as Pick<Journal, 'entries'>;
    if ('journal' in value && typeof value.journal?.entries === 'function') return value.journal;
    if ('server' in value && typeof value.server?.journal?.entries === 'function')
      return value.server.journal;
  }
  throw new TypeError('toHaveReceived: expect a reference server (parley.server) or its journal');
}

function describeFilter(filter: JournalFilter): string {
  const parts = [
    filter.method?.toUpperCase() ?? 'any method',
    filter.path === undefined ? 'any path' : String(filter.path),
  ];
  if (filter.sessionId !== undefined) parts.push(`in session ${filter.sessionId}`);
  if (filter.user !== undefined) parts.push(`from user ${filter.user}`);
  return parts.join(' ');
}

function timesText(n: number): string {
  return n === 1 ? 'once' : `${n} times`;
}

/** `It received: POST /v1/sessions (201), ...`, the newest last, at most {@link LISTED}. */
function listed(entries: readonly JournalEntry[]): string {
  if (entries.length === 0) return 'It received no request (the journal is empty).';
  const shown = entries.slice(-LISTED);
  const lines = shown.map(
    (e) =>
      `  ${e.method} ${e.path}${e.query} (${e.response === undefined ? 'no answer yet' : e.response.status})`,
  );
  const more =
    entries.length > shown.length ? `  (${entries.length - shown.length} earlier not shown)\n` : '';
  return `It received:\n${more}${lines.join('\n')}`;
}
