import type { ExceptionEventKind, KnownStreamEventKind, StreamEventPayload } from '@parley/protocol';
import type { ValidationIssue } from '../errors/index.js';
import { EVENT_SHAPES, EXCEPTION_EVENT_KINDS, isKnownStreamEventKind } from './event-shapes.js';

/** A known event: its payload's fields plus `type`, the event kind. */
export type KnownStreamEventItem = {
  [K in KnownStreamEventKind]: { type: K } & StreamEventPayload<K>;
}[KnownStreamEventKind];

/** An event kind this SDK version does not know: passed through untouched, never thrown. */
export interface UnknownStreamEventItem {
  type: 'unknown';
  /** The event's key, e.g. `reasoningDelta`. */
  kind: string;
  /** The event's value as received. */
  payload: unknown;
}

/**
 * One event of a streamed reply. Narrow on `type`:
 *
 * @example
 * ```ts
 * for await (const event of stream) {
 *   if (event.type === 'contentBlockDelta' && 'text' in event.delta) process.stdout.write(String(event.delta.text));
 *   if (event.type === 'unknown') console.debug('new event kind', event.kind);
 * }
 * ```
 */
export type StreamEventItem = KnownStreamEventItem | UnknownStreamEventItem;

/** A stream event of the given kind. */
export type StreamEventOf<K extends StreamEventItem['type']> = Extract<StreamEventItem, { type: K }>;

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
  return { ok: true, item: item as KnownStreamEventItem };
}

/** True for the exception kinds (`modelStreamErrorException`, ...). */
export function isExceptionEvent(item: StreamEventItem): item is StreamEventOf<ExceptionEventKind> {
  return EXCEPTION_EVENT_KINDS.has(item.type);
}
