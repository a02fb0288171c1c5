// What the journal page writes for an entry: times, durations, a reply's summary, a response's detail.
// Pure functions of the journal's data (no DOM), bundled into the page's script with
// journal-page-client.ts, and tested in Node.
import type { ProtocolViolation } from '../http/protocol-violation.js';
import type { JournalEntry, JournalResponse } from './journal-entry.js';
import type { SessionSnapshot } from './session-snapshot.js';

type Block = SessionSnapshot['messages'][number]['content'][number];

const pad = (n: number, width: number) => String(n).padStart(width, '0');
export function clockTime(ms: number): string {
  const d = new Date(ms);
  return `${pad(d.getUTCHours(), 2)}:${pad(d.getUTCMinutes(), 2)}:${pad(d.getUTCSeconds(), 2)}.${pad(d.getUTCMilliseconds(), 3)}`;
}
export const isoTime = (ms: number) => (Number.isFinite(ms) ? new Date(ms).toISOString() : String(ms));
export const pretty = (value: unknown) =>
  typeof value === 'string' ? value : JSON.stringify(value, null, 2);
// A fault as the x-parley-fault header would say it: status=503, latencyMs=250, drop
export const faultText = (fault: object) =>
  Object.entries(fault)
    .map(([key, value]) =>
      value === true ? key : `${key}=${typeof value === 'object' ? JSON.stringify(value) : value}`,
    )
    .join(', ');
/** An entry's fault, marked when seeded chaos gave it: `chaos (seed 42, #3): status=503, ...`. */
export function entryFault(entry: JournalEntry): string | undefined {
  if (entry.fault === undefined) return undefined;
  const chaos = entry.chaos === undefined ? '' : `chaos (seed ${entry.chaos.seed}, #${entry.chaos.n}): `;
  return chaos + faultText(entry.fault);
}

export const shortSession = (id: string | undefined) =>
  id && id.length > 14 ? `${id.slice(0, 13)}…` : id || '';
export const millis = (ms: number) => (ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(2)} s`);

export function duration(entry: JournalEntry): string {
  if (entry.durationMs === undefined) return entry.response ? 'streaming' : '…';
  return millis(entry.durationMs);
}

export function statusClass(entry: JournalEntry): string {
  const r = entry.response;
  if (!r) return 'status-pending';
  if (r.status === 0) return 'status-dropped';
  return `status-${Math.floor(r.status / 100)}xx`;
}

export function matchesStatus(entry: JournalEntry, filter: string): boolean {
  const r = entry.response;
  if (filter === '') return true;
  if (filter === 'errors') return !!r && (r.status === 0 || r.status >= 400 || r.error !== undefined);
  if (filter === 'in-progress') return entry.durationMs === undefined;
  return !!r && statusClass(entry) === `status-${filter}`;
}

export function matchesSession(id: string | undefined, filter: string): boolean {
  return filter === '' || (filter === '-' ? id === undefined : id === filter);
}

export function replySummary(r: JournalResponse | undefined): string {
  if (!r) return '';
  if (r.error) return `${r.error.code}: ${r.error.message}`;
  const parts: string[] = [];
  if (r.text) parts.push(r.text);
  if (r.pendingTools && r.pendingTools.length > 0) parts.push(`waits for ${r.pendingTools.join(', ')}`);
  if (r.stopReason) parts.push(`[${r.stopReason}]`);
  if (r.events !== undefined) parts.push(`(${r.events} events${r.complete ? '' : ', incomplete'})`);
  if (parts.length === 0 && r.body !== undefined) {
    parts.push(typeof r.body === 'string' ? r.body : JSON.stringify(r.body));
  }
  return parts.join(' ');
}

export function blockText(block: Block): string {
  if (block.type === 'text') return block.text;
  if (block.type === 'tool_use') return `tool_use ${block.name} ${JSON.stringify(block.input)}`;
  if (block.type === 'tool_result') {
    return `tool_result ${JSON.stringify(block.content)}${block.is_error ? ' (error)' : ''}`;
  }
  return JSON.stringify(block);
}

export function responseText(r: JournalResponse | undefined): string {
  if (!r) return 'No response yet.';
  if (r.status === 0) return 'The connection was dropped before any response.';
  const lines = [`HTTP ${r.status}${r.complete ? '' : ' (incomplete)'}`];
  if (r.events !== undefined) {
    lines.push(
      `Streamed: ${r.events} events. The journal keeps what they said and when, not the events:`,
      '',
    );
    lines.push(
      pretty({ text: r.text, stopReason: r.stopReason, pendingTools: r.pendingTools, error: r.error }),
    );
    if (r.eventTimes !== undefined && r.eventTimes.length > 0) lines.push('', ...eventTimeLines(r));
  } else if (r.body !== undefined) {
    lines.push('', pretty(r.body));
    if (r.bodyTruncated) lines.push('', '(truncated: the journal keeps the first 64 KiB)');
  } else lines.push('', '(no body)');
  return lines.join('\n');
}

/** One protocol violation the checking proxy found: where, and what was wrong. */
export function violationText(v: ProtocolViolation): string {
  return `${v.in} ${v.path === '' ? '(body)' : v.path}: expected ${v.expected}, got ${v.got}`;
}

/**
 * A streamed reply's timing, one line per event: when it was written (ms after the request
 * arrived), the gap since the one before, its kind; the longest gap is marked, so where the stream
 * slowed or stopped stands out.
 */
export function eventTimeLines(r: JournalResponse): string[] {
  const times = r.eventTimes ?? [];
  const last = times.length - 1;
  // Past the kept times the newest event follows left-out ones: no gap is known before it.
  const gaps = times.map((t, i) =>
    r.eventTimesTruncated && i === last ? undefined : t.atMs - (times[i - 1]?.atMs ?? 0),
  );
  const longest = gaps.reduce<number>((max, gap, i) => ((gap ?? 0) > (gaps[max] ?? 0) ? i : max), 0);
  const width = String(times.at(-1)?.atMs ?? 0).length + 2;
  const gapWidth = Math.max(...gaps.map((gap) => String(gap ?? '').length));
  const lines = ['Event times (ms after the request arrived, +gap since the event before):'];
  times.forEach((t, i) => {
    const gap = gaps[i];
    if (gap === undefined)
      lines.push(`  ... ${(r.events ?? times.length) - times.length} events not kept ...`);
    const mark = i === longest && (gap ?? 0) > 0 ? '  <- longest gap' : '';
    const shownGap = gap === undefined ? ' '.repeat(gapWidth + 1) : `+${String(gap).padEnd(gapWidth)}`;
    lines.push(`${String(t.atMs).padStart(width)} ms  ${shownGap}  ${t.kind}${mark}`);
  });
  return lines;
}
