import type { ValidationIssue } from '../errors/index.js';
import type { RecoveryAttempt } from '../recovery/recover-options.js';
import type { ExceptionEventKind, KnownStreamEventKind, StreamEventPayloads } from '../wire/index.js';
import { EVENT_SHAPES, EXCEPTION_EVENT_KINDS, isKnownStreamEventKind } from './event-shapes.js';

/** A known event: its payload's fields plus `type`, the event kind. */
export type KnownStreamEvent = {
  [K in KnownStreamEventKind]: { type: K } & StreamEventPayloads[K];
}[KnownStreamEventKind];

/**
 * An event kind this SDK version does not know: passed through untouched, never thrown. Its `type`
 * is `'unknown'` (never a known kind's name), so checking `type` narrows to a known kind.
 */
export interface UnknownStreamEvent {
  type: 'unknown';
  /** The event's key, e.g. `reasoningDelta`. */
  kind: string;
  /** The event's value as received. */
  payload: unknown;
}

/**
 * Not the server's: the `recover` option took over after a failure (the attempt's fields). What
 * streamed of the interrupted answer was retracted; the events of a resume follow.
 */
export type RecoveredStreamEvent = { type: 'recovered' } & RecoveryAttempt;

/**
 * One event of a streamed reply: a union on `type` that narrows, and the deltas narrow with `in`.
 *
 * @example
 * ```ts
 * for await (const event of stream) {
 *   if (event.type === 'contentBlockDelta' && 'text' in event.delta) process.stdout.write(event.delta.text);
 *   else if (event.type === 'unknown') console.debug('new event kind', event.kind);
 * }
 * ```
 */
export type MessageStreamEvent = KnownStreamEvent | UnknownStreamEvent | RecoveredStreamEvent;

/** A stream event of the given kind: `StreamEventOf<'contentBlockDelta'>`. */
export type StreamEventOf<K extends MessageStreamEvent['type']> = Extract<MessageStreamEvent, { type: K }>;

/** Another name of {@link MessageStreamEvent}, kept for existing code. */
export type StreamEventItem = MessageStreamEvent;
/** Another name of {@link KnownStreamEvent}, kept for existing code. */
export type KnownStreamEventItem = KnownStreamEvent;
/** Another name of {@link UnknownStreamEvent}, kept for existing code. */
export type UnknownStreamEventItem = UnknownStreamEvent;

/** The result of reading one raw element of `events`. */
export type DecodedEvent =
  | { ok: true; item: StreamEventItem }
  | { ok: false; kind: KnownStreamEventKind; issues: ValidationIssue[]; payload: unknown };

/**
 * Turns one raw element of `events` (`{ [kind]: payload }`) into a {@link StreamEventItem}. Known
 * kinds have the fields the SDK reads checked; anything else becomes an `unknown` item. The
 * payload object itself becomes the item (no copy): only `type` is added.
 */
export function decodeStreamEvent(raw: unknown): DecodedEvent {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return { ok: true, item: { type: 'unknown', kind: '', payload: raw } };
  }
  let kind: string | undefined;
  for (const key in raw) {
    kind = key;
    break;
  }
  if (kind === undefined) return { ok: true, item: { type: 'unknown', kind: '', payload: raw } };
  const payload = (raw as Record<string, unknown>)[kind];
  if (!isKnownStreamEventKind(kind)) return { ok: true, item: { type: 'unknown', kind, payload } };
  const issues: ValidationIssue[] = [];
  EVENT_SHAPES[kind](payload, [], issues);
  if (issues.length > 0) return { ok: false, kind, issues, payload };
  // The parser made the payload for us alone, so it is reused; `type` is set last so a payload
  // field of that name cannot hide the kind.
  const item = payload as Record<string, unknown>;
  item.type = kind;
  return { ok: true, item: item as KnownStreamEvent };
}

/** True for the exception kinds (`modelStreamErrorException`, ...). */
export function isExceptionEvent(item: StreamEventItem): item is StreamEventOf<ExceptionEventKind> {
  return EXCEPTION_EVENT_KINDS.has(item.type);
}
