import { EXCEPTION_EVENT_KINDS } from '@parley/protocol';
import { jsonDepth, MAX_JSON_DEPTH } from '../http/json-depth.js';
import type { Clock } from '../time/clock.js';
import type { JournalEntry, JournalResponse } from './journal.js';

/** Longest body text the journal keeps (characters); longer bodies are kept truncated. */
export const MAX_JOURNAL_BODY_CHARS = 64 * 1024;

const EXCEPTION_KINDS: ReadonlySet<string> = new Set(EXCEPTION_EVENT_KINDS);

/**
 * The body of `text` as the journal keeps it: parsed JSON, or text; truncated when huge, or when
 * `truncated` says the text is only the start of the body. JSON nested deeper than the request
 * limit is kept as text, so copying or serving the journal never recurses that deep.
 */
export function journalBody(text: string, truncated = false): { body?: unknown; bodyTruncated?: true } {
  if (text === '' && !truncated) return {};
  if (truncated || text.length > MAX_JOURNAL_BODY_CHARS)
    return { body: text.slice(0, MAX_JOURNAL_BODY_CHARS), bodyTruncated: true };
  if (jsonDepth(text, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) return { body: text };
  try {
    return { body: JSON.parse(text) as unknown };
  } catch {
    return { body: text };
  }
}

/** The stop reason, text and pending tools of a reply body, or the error of an error body. */
export function summarizeBody(body: unknown): Partial<JournalResponse> {
  if (!isRecord(body)) return {};
  const summary: Partial<JournalResponse> = {};
  if (isRecord(body.error) && typeof body.error.code === 'string') {
    summary.error = { code: body.error.code, message: String(body.error.message ?? '') };
  }
  if (typeof body.stopReason === 'string') summary.stopReason = body.stopReason;
  if (Array.isArray(body.messages) && typeof body.stopReason === 'string') {
    summary.text = body.messages
      .filter(
        (m): m is Record<string, unknown> =>
          isRecord(m) && m.role === 'assistant' && Array.isArray(m.content),
      )
      .flatMap((m) => (m.content as unknown[]).filter(isRecord))
      .filter((block) => block.type === 'text' && typeof block.text === 'string')
      .map((block) => block.text as string)
      .join('');
  }
  if (Array.isArray(body.pendingTools)) {
    summary.pendingTools = body.pendingTools.filter(isRecord).map((tool) => String(tool.name));
  }
  return summary;
}

/**
 * Passes a streamed body through unchanged while filling `entry.response` from its events. Reads
 * the source only as the client reads (backpressure kept) and cancels it when the client cancels.
 */
export function recordStream(
  body: ReadableStream<Uint8Array>,
  entry: JournalEntry,
  response: JournalResponse,
  clock: Clock,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let pending = '';
  let text = '';
  let ended = false;
  let closedJson = false;
  let role: unknown;
  response.events = 0;
  const line = (raw: string) => {
    // The writer puts the comma between two events at the end of the first one's line.
    const trimmed = raw.trim().replace(/^,|,$/g, '');
    if (trimmed === ']}') closedJson = true;
    if (trimmed === '' || trimmed === ']}' || trimmed.startsWith('{"sessionId"')) return;
    response.events = (response.events ?? 0) + 1;
    let event: unknown;
    try {
      event = JSON.parse(trimmed);
    } catch {
      return;
    }
    if (!isRecord(event)) return;
    const [kind] = Object.keys(event);
    const payload = kind === undefined ? undefined : event[kind];
    if (kind === 'messageStart' && isRecord(payload)) role = payload.role;
    else if (kind === 'contentBlockDelta' && isRecord(payload) && isRecord(payload.delta)) {
      const delta = payload.delta.text;
      if (role === 'assistant' && typeof delta === 'string' && text.length < MAX_JOURNAL_BODY_CHARS) {
        text += delta;
      }
    } else if (kind === 'replyStop') {
      Object.assign(response, summarizeBody(payload), { text });
    } else if (kind !== undefined && EXCEPTION_KINDS.has(kind) && isRecord(payload)) {
      response.error = { code: String(payload.code ?? kind), message: String(payload.message ?? '') };
    }
    if (response.stopReason === undefined) response.text = text;
  };
  const finish = (complete: boolean) => {
    if (ended) return;
    ended = true;
    if (pending !== '') line(pending);
    response.text = text;
    response.complete = complete;
    entry.durationMs = clock.now() - entry.time;
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let next: ReadableStreamReadResult<Uint8Array>;
      try {
        next = await reader.read();
      } catch (error) {
        finish(false);
        controller.error(error);
        return;
      }
      if (next.done) {
        pending += decoder.decode();
        // A stream that ended without its closing `]}` was cut.
        finish(closedJson || pending.trim() === ']}');
        controller.close();
        return;
      }
      const lines = (pending + decoder.decode(next.value, { stream: true })).split('\n');
      pending = lines.pop() ?? '';
      for (const raw of lines) line(raw);
      controller.enqueue(next.value);
    },
    cancel(reason) {
      finish(false);
      return reader.cancel(reason);
    },
  });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
