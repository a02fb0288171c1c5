import {
  EXCEPTION_EVENT_KINDS,
  type ExceptionEventKind,
  isKnownStreamEventKind,
  type KnownStreamEventKind,
  STREAM_EVENT_SCHEMAS,
  type StreamEventPayload,
} from '@parley/protocol';

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
  | { ok: false; kind: KnownStreamEventKind; issues: import('zod').core.$ZodIssue[]; payload: unknown };

/**
 * Turns one raw element of `events` (`{ [kind]: payload }`) into a {@link StreamEventItem}. Known
 * kinds are validated against the protocol's schemas; anything else becomes an `unknown` item.
 */
export function decodeStreamEvent(raw: unknown): DecodedEvent {
  const entry = singleEntry(raw);
  if (!entry) return { ok: true, item: { type: 'unknown', kind: '', payload: raw } };
  const [kind, payload] = entry;
  if (!isKnownStreamEventKind(kind)) return { ok: true, item: { type: 'unknown', kind, payload } };
  const result = STREAM_EVENT_SCHEMAS[kind].safeParse(payload);
  if (!result.success) return { ok: false, kind, issues: result.error.issues, payload };
  // `type` is set last so a payload field of that name cannot hide the kind.
  return { ok: true, item: { ...(result.data as object), type: kind } as KnownStreamEventItem };
}

function singleEntry(raw: unknown): [string, unknown] | undefined {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return undefined;
  const keys = Object.keys(raw);
  const kind = keys[0];
  if (kind === undefined) return undefined;
  return [kind, (raw as Record<string, unknown>)[kind]];
}

/** True for the exception kinds (`modelStreamErrorException`, ...). */
export function isExceptionEvent(item: StreamEventItem): item is StreamEventOf<ExceptionEventKind> {
  return (EXCEPTION_EVENT_KINDS as readonly string[]).includes(item.type);
}
