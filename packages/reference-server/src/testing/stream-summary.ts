import { EXCEPTION_EVENT_KINDS } from '@parley/protocol';
import { EventTimeline } from './event-timeline.js';
import { flatPrefix, isRecord } from './journal-body.js';

const EXCEPTION_KINDS: ReadonlySet<string> = new Set(EXCEPTION_EVENT_KINDS);

/** Parts of the text gathered before they are joined into one string. */
const PARTS_BEFORE_JOIN = 256;

/**
 * What the journal keeps of a streamed reply, gathered from its events as they are written: how
 * many and when, the assistant text (its first `maxChars` characters, whole deltas), the stop
 * reason, the pending tools, and the error of an exception event. It keeps strings and numbers,
 * never the events.
 */
export class StreamSummary {
  events = 0;
  stopReason: string | undefined;
  pendingTools: string[] | undefined;
  error: { code: string; message: string } | undefined;
  /** True once a delta was left out because the text reached `maxChars`. */
  textTruncated = false;
  /** When each event was written. */
  readonly timeline = new EventTimeline();
  #role: unknown;
  #parts: string[] = [];
  #chars = 0;

  constructor(private readonly maxChars: number) {}

  /**
   * Counts one event (raw text counts too), written `atMs` after the request arrived; returns the
   * characters it added to the text.
   */
  add(event: Record<string, unknown> | string, atMs: number): number {
    this.events++;
    if (typeof event === 'string') {
      this.timeline.add('(text)', atMs);
      return 0;
    }
    let kind: string | undefined;
    for (const key in event) {
      kind = key;
      break;
    }
    this.timeline.add(kind ?? '(empty)', atMs);
    if (kind === undefined) return 0;
    const payload = event[kind];
    if (!isRecord(payload)) return 0;
    if (kind === 'contentBlockDelta') {
      const delta = isRecord(payload.delta) ? payload.delta.text : undefined;
      return this.#role === 'assistant' && typeof delta === 'string' ? this.#append(delta) : 0;
    }
    if (kind === 'messageStart') this.#role = payload.role;
    else if (kind === 'replyStop') {
      if (typeof payload.stopReason === 'string') this.stopReason = payload.stopReason;
      if (Array.isArray(payload.pendingTools)) {
        this.pendingTools = payload.pendingTools.filter(isRecord).map((tool) => String(tool.name));
      }
    } else if (EXCEPTION_KINDS.has(kind)) {
      this.error = { code: String(payload.code ?? kind), message: String(payload.message ?? '') };
    }
    return 0;
  }

  /** The body ended: the text becomes one string of its own (no view into a longer one). */
  finish(): void {
    this.#parts = [flatPrefix(this.#parts.join(''), this.#chars)];
  }

  /** Characters of the text kept so far. */
  get textChars(): number {
    return this.#chars;
  }

  /** The assistant text so far, as one string. */
  get text(): string {
    if (this.#parts.length > 1) this.#parts = [this.#parts.join('')];
    return this.#parts[0] ?? '';
  }

  #append(delta: string): number {
    if (this.#chars >= this.maxChars) {
      if (delta !== '') this.textTruncated = true;
      return 0;
    }
    this.#parts.push(delta);
    this.#chars += delta.length;
    // Joined as it goes: many small strings cost more than one long one.
    if (this.#parts.length >= PARTS_BEFORE_JOIN) this.#parts = [this.#parts.join('')];
    return delta.length;
  }
}
