import { JOURNAL_PAGE_SCRIPT } from './journal-page-script.js';
import { JOURNAL_PAGE_STYLE } from './journal-page-style.js';

// The page of `GET /_parley/ui`: a static shell (no data in it) whose script reads the control routes
// of the same origin. Plain HTML, CSS and JavaScript, no build step and no dependency.
export const JOURNAL_PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Parley reference server</title>
<link rel="icon" href="data:,">
<style>${JOURNAL_PAGE_STYLE}</style>
</head>
<body>
<div class="top">
  <h1>Parley reference server</h1>
  <button id="refresh" type="button">Refresh</button>
  <label><input id="auto" type="checkbox"> every 2 s</label>
  <label>Session <select id="filter-session"><option value="">All sessions</option></select></label>
  <label>Status <select id="filter-status">
    <option value="">All</option>
    <option value="2xx">2xx</option>
    <option value="3xx">3xx</option>
    <option value="4xx">4xx</option>
    <option value="5xx">5xx</option>
    <option value="errors">Errors: 4xx, 5xx, failed streams, drops</option>
    <option value="dropped">Dropped connections</option>
    <option value="in-progress">In progress</option>
  </select></label>
  <span id="count" class="muted"></span>
  <span id="updated" class="muted"></span>
</div>
<main>
<p id="error" role="alert"></p>
<h2>Journal <span class="muted">newest first; select a row for its request and response</span></h2>
<table id="journal">
  <colgroup><col class="col-seq"><col class="col-time"><col class="col-duration"><col class="col-request"><col class="col-user"><col class="col-session"><col class="col-status"><col><col class="col-fault"></colgroup>
  <thead><tr><th>#</th><th>Time (UTC)</th><th>Duration</th><th>Request</th><th>User</th><th>Session</th><th>Status</th><th>Reply</th><th>Fault</th></tr></thead>
  <tbody></tbody>
</table>
<p id="journal-empty" class="muted"></p>
<h2>Sessions</h2>
<div id="sessions" class="muted">Loading...</div>
</main>
<dialog id="detail" aria-labelledby="detail-title">
  <div class="bar"><h2 id="detail-title"></h2><button id="detail-close" type="button">Close</button></div>
  <div class="detail">
    <dl id="detail-facts"></dl>
    <h3>Request body</h3>
    <pre id="detail-request"></pre>
    <h3>Response</h3>
    <pre id="detail-response"></pre>
    <h3>Journal entry</h3>
    <pre id="detail-entry"></pre>
  </div>
</dialog>
<script>${JOURNAL_PAGE_SCRIPT}</script>
</body>
</html>
`;

let policy: Promise<string> | undefined;

/**
 * The page's Content-Security-Policy: its one inline script and one inline style allowed by their
 * SHA-256 hashes (nothing else runs, no inline event handlers), fetches to its own origin only, no
 * framing, no forms, no base URL.
 */
export function journalPagePolicy(): Promise<string> {
  policy ??= Promise.all([sha256(JOURNAL_PAGE_SCRIPT), sha256(JOURNAL_PAGE_STYLE)]).then(([script, style]) =>
    [
      "default-src 'none'",
      `script-src 'sha256-${script}'`,
      `style-src 'sha256-${style}'`,
      "connect-src 'self'",
      'img-src data:',
      "base-uri 'none'",
      "form-action 'none'",
      "frame-ancestors 'none'",
    ].join('; '),
  );
  return policy;
}

/** The response of `GET /_parley/ui` (and `/_parley/ui/`): the page, its CSP and no caching. */
export async function journalPageResponse(): Promise<Response> {
  return new Response(JOURNAL_PAGE_HTML, {
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': await journalPagePolicy(),
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
      'x-content-type-options': 'nosniff',
    },
  });
}

async function sha256(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  return btoa(String.fromCharCode(...digest));
}
