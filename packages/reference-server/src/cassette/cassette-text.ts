import { setOwn } from '../utils/set-own.js';
import type {
  Cassette,
  CassetteSession,
  CassetteTurn,
  RecordedEvent,
  ToolResponse,
} from './cassette-format.js';

/**
 * The cassette as text for a file under review: pretty-printed with two spaces, the format's own
 * keys in the documented order, the keys of recorded JSON values (customizations, tool inputs and
 * responses, events) sorted, and each stream event on one line. The same cassette always gives the
 * same text, ending with a newline.
 */
export function formatCassette(cassette: Cassette): string {
  return `${pretty(ordered(cassette), '')}\n`;
}

/** The cassette rebuilt with its keys in the documented order (undefined fields left out). */
function ordered(cassette: Cassette): unknown {
  return withoutUndefined({
    format: cassette.format,
    version: cassette.version,
    recordedAt: cassette.recordedAt,
    upstream: cassette.upstream,
    parleyVersion: cassette.parleyVersion,
    sessions: cassette.sessions.map(orderedSession),
  });
}

function orderedSession(session: CassetteSession): unknown {
  return withoutUndefined({
    test: session.test,
    recordedAt: session.recordedAt,
    customizations: session.customizations === null ? null : sortKeys(session.customizations),
    turns: session.turns.map(orderedTurn),
  });
}

function orderedTurn(turn: CassetteTurn): unknown {
  return withoutUndefined({
    input: sortKeys(turn.input),
    toolResponses: turn.toolResponses?.map(orderedToolResponse),
    content: sortKeys(turn.content),
    stopReason: turn.stopReason,
    usage: turn.usage === undefined ? undefined : sortKeys(turn.usage),
    error: turn.error === undefined ? undefined : { code: turn.error.code, message: turn.error.message },
    events: turn.events?.map((e: RecordedEvent) => new OneLine({ atMs: e.atMs, event: sortKeys(e.event) })),
  });
}

function orderedToolResponse(response: ToolResponse): unknown {
  return response.state === 'COMPLETE'
    ? { requestId: response.requestId, state: response.state, response: sortKeys(response.response) }
    : { requestId: response.requestId, state: response.state, error: response.error };
}

/** A value printed compactly on one line inside the pretty-printed text. */
class OneLine {
  constructor(readonly value: unknown) {}
}

function withoutUndefined(record: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) if (value !== undefined) out[key] = value;
  return out;
}

/** A JSON value with the keys of every object sorted (arrays keep their order). */
export function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const item = (value as Record<string, unknown>)[key];
      // setOwn: recorded JSON keeps a key named __proto__ as data.
      if (item !== undefined) setOwn(out, key, sortKeys(item));
    }
    return out;
  }
  return value;
}

function pretty(value: unknown, indent: string): string {
  if (value instanceof OneLine) return JSON.stringify(value.value);
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((item) => inner + pretty(item, inner)).join(',\n')}\n${indent}]`;
  }
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value);
    if (entries.length === 0) return '{}';
    const lines = entries.map(([key, item]) => `${inner}${JSON.stringify(key)}: ${pretty(item, inner)}`);
    return `{\n${lines.join(',\n')}\n${indent}}`;
  }
  return JSON.stringify(value);
}
