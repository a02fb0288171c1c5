import type { JournalEntry } from './journal-entry.js';
import { JOURNAL_PAGE_HTML } from './journal-page.js';
import type { SessionSnapshot } from './session-snapshot.js';

/**
 * The journal page as one file that needs no server: the page of `GET /_parley/ui` with the journal
 * and the sessions written into it, answered to its own reads. What a failed test attaches to its
 * report: it opens where the report is read, long after the server stopped.
 */
export function journalSnapshotPage(snapshot: {
  entries: JournalEntry[];
  sessions: SessionSnapshot[];
}): string {
  // `<` escaped: the data cannot end the script element it sits in.
  const data = JSON.stringify({
    '/journal': { entries: snapshot.entries, dropped: 0 },
    '/sessions': snapshot,
  })
    .replaceAll('<', '\\u003c')
    .replaceAll('\u2028', '\\u2028')
    .replaceAll('\u2029', '\\u2029');
  const answers =
    `<script>const parleySnapshot = ${data};` +
    'window.fetch = async (url) => { const path = String(url).replace(/^.*(\\/journal|\\/sessions)$/, "$1");' +
    ' const body = parleySnapshot[path];' +
    ' return new Response(JSON.stringify(body ?? {}), { status: body === undefined ? 404 : 200, headers: { "content-type": "application/json" } }); };' +
    '</script>';
  return JOURNAL_PAGE_HTML.replace('<script>', `${answers}\n<script>`);
}
