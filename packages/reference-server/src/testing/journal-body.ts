import { jsonDepth, MAX_JSON_DEPTH } from '../http/json-depth.js';
import type { JournalResponse } from './journal-entry.js';

/**
 * How the journal keeps a body (a form and its data, stored side by side so that keeping a body
 * costs no object of its own): the value it was read as or rendered from (its strings shared with
 * whoever else holds them), text, the first characters of a longer text, or text that may be JSON,
 * parsed when the journal is read.
 */
export const BodyForm = { none: 0, value: 1, text: 2, truncated: 3, jsonText: 4 } as const;
export type BodyForm = (typeof BodyForm)[keyof typeof BodyForm];

/** A body's form, its data and the characters the journal counts for it. */
export interface KeptBody {
  form: BodyForm;
  data: unknown;
  chars: number;
}

/**
 * A body as the journal keeps it, from its text and, when it is valid JSON, the value it was parsed
 * from or serialized from (`hasValue`). Text longer than `maxChars`, or only the start of the body
 * (`truncated`), is kept as a copy of its first `maxChars` characters, which never keeps the whole
 * text alive. Without a value, text that may be JSON (`json`) is parsed when the journal is read.
 */
export function keepBody(
  text: string,
  maxChars: number,
  options: { value?: unknown; hasValue?: boolean; truncated?: boolean; json?: boolean },
): KeptBody {
  const truncated = options.truncated === true;
  if (text === '' && !truncated) return { form: BodyForm.none, data: undefined, chars: 0 };
  if (truncated || text.length > maxChars) {
    const kept = flatPrefix(text, maxChars);
    return { form: BodyForm.truncated, data: kept, chars: kept.length };
  }
  if (options.hasValue === true) return { form: BodyForm.value, data: options.value, chars: text.length };
  return { form: options.json === true ? BodyForm.jsonText : BodyForm.text, data: text, chars: text.length };
}

/**
 * The body a journal entry shows: a copy of the kept value (later changes do not show), the text,
 * or text parsed as JSON (text when it is not JSON, or nested deeper than the request limit, so
 * copying or serving the journal never recurses that deep). Undefined when there is none.
 */
export function shownBody(
  form: BodyForm,
  data: unknown,
): { body: unknown; bodyTruncated?: true } | undefined {
  switch (form) {
    case BodyForm.none:
      return undefined;
    case BodyForm.value:
      return { body: structuredClone(data) };
    case BodyForm.text:
      return { body: data };
    case BodyForm.truncated:
      return { body: data, bodyTruncated: true };
  }
  const text = data as string;
  if (jsonDepth(text, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) return { body: text };
  try {
    return { body: JSON.parse(text) as unknown };
  } catch {
    return { body: text };
  }
}

/** The `sessionId` member of a kept JSON object (a kept value is read, not copied). */
export function sessionIdOf(form: BodyForm, data: unknown): string | undefined {
  const body =
    form === BodyForm.value ? data : form === BodyForm.jsonText ? shownBody(form, data)?.body : undefined;
  return isRecord(body) && typeof body.sessionId === 'string' ? body.sessionId : undefined;
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
 * A copy of the first `length` characters of `text` that does not keep `text` alive (a plain
 * `slice` of a long string may be a view into it, keeping the whole of it on the heap).
 */
export function flatPrefix(text: string, length: number): string {
  const prefix = text.length > length ? text.slice(0, length) : text;
  // A JSON round trip builds a new string, lone surrogates included.
  return JSON.parse(JSON.stringify(prefix)) as string;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
