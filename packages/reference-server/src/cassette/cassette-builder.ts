import type { ContentBlock, ToolResultBlock } from '@parley/protocol';
import type { ProxyExchange } from '../proxy/proxy-exchange.js';
import {
  type Cassette,
  type CassetteSession,
  type CassetteTurn,
  emptyCassette,
  type RecordedEvent,
  type ToolResponse,
  type TurnInput,
} from './cassette-format.js';
import { field, isRecord, isUsage } from './json-fields.js';
import { type StreamPart, streamParts } from './stream-messages.js';

const SESSIONS = /^\/v1\/sessions\/?$/;
const SEND = /^\/v1\/messages\/([^/]+)(\/stream)?\/?$/;
const TOOL_RESPONSE = /^\/v1\/tools\/response\/([^/]+)\/([^/]+)\/?$/;
const HEARTBEAT = /^\/v1\/tools\/request\/([^/]+)\/([^/]+)\/heartbeat\/?$/;

interface SessionState {
  readonly recorded: CassetteSession;
  /** What the next model call answers, as far as the traffic showed it. */
  input: TurnInput | undefined;
  /** Tool calls settled since the last turn, given to the next one. */
  toolResponses: ToolResponse[];
}

/**
 * Builds a cassette from the exchanges a proxy saw. Exchanges are taken in order of arrival
 * (`seq`), whatever the order they finished in; requests that failed, and those that are not part
 * of a conversation (lists, reads, rewinds, control routes), leave no trace. `testOf` names the
 * test a session-creating exchange belongs to (`per: 'test'`).
 */
export function buildCassette(
  exchanges: readonly ProxyExchange[],
  testOf: (seq: number) => string | undefined = () => undefined,
): Cassette {
  const cassette = emptyCassette();
  const sessions = new Map<string, SessionState>();
  for (const exchange of [...exchanges].sort((a, b) => a.seq - b.seq)) {
    if (exchange.method.toUpperCase() !== 'POST') continue;
    const path = exchange.path.split('?')[0] ?? '';
    const ok = exchange.status >= 200 && exchange.status < 300;
    if (SESSIONS.test(path)) {
      const sessionId = field(exchange.responseBody, 'sessionId');
      if (!ok || typeof sessionId !== 'string') continue;
      const customizations = field(exchange.requestBody, 'customizations');
      const test = testOf(exchange.seq);
      const recorded: CassetteSession = {
        ...(test === undefined ? {} : { test }),
        customizations: isRecord(customizations) ? customizations : null,
        turns: [],
      };
      cassette.sessions.push(recorded);
      sessions.set(sessionId, { recorded, input: undefined, toolResponses: [] });
      continue;
    }
    let match = SEND.exec(path);
    if (match !== null) {
      const session = sessions.get(decode(match[1]));
      if (session !== undefined) recordSend(session, exchange, match[2] !== undefined);
      continue;
    }
    match = TOOL_RESPONSE.exec(path);
    if (match !== null) {
      const session = sessions.get(decode(match[1]));
      const response = field(exchange.requestBody, 'response');
      if (ok && session !== undefined && isRecord(response)) {
        session.toolResponses.push({ requestId: decode(match[2]), state: 'COMPLETE', response });
      }
      continue;
    }
    match = HEARTBEAT.exec(path);
    if (match !== null) {
      const session = sessions.get(decode(match[1]));
      const error = field(exchange.requestBody, 'error');
      if (
        ok &&
        session !== undefined &&
        field(exchange.requestBody, 'state') === 'ERROR' &&
        typeof error === 'string'
      ) {
        session.toolResponses.push({ requestId: decode(match[2]), state: 'ERROR', error });
      }
    }
  }
  return cassette;
}

function recordSend(session: SessionState, exchange: ProxyExchange, streamed: boolean): void {
  const content = userText(field(exchange.requestBody, 'content'));
  if (content !== undefined) session.input = { user: content };
  if (streamed && exchange.status === 200 && exchange.events !== undefined) {
    recordStream(session, exchange.events);
  } else if (exchange.status === 200) {
    recordBuffered(session, exchange.responseBody);
  } else if (modelErrorOf(exchange.responseBody) !== undefined) {
    addTurn(session, { content: [], error: modelErrorOf(exchange.responseBody)! });
  }
}

function addTurn(session: SessionState, turn: Omit<CassetteTurn, 'input'>): void {
  // A model call the traffic does not show the input of (none before it) cannot be matched: left out.
  if (session.input === undefined) return;
  const toolResponses = session.toolResponses;
  session.toolResponses = [];
  session.recorded.turns.push({
    input: session.input,
    ...(toolResponses.length > 0 ? { toolResponses } : {}),
    ...turn,
  });
}

/** A buffered reply: its `messages` hold the user's turn and each assistant message it appended. */
function recordBuffered(session: SessionState, body: unknown): void {
  const messages = field(body, 'messages');
  if (!Array.isArray(messages)) return;
  const assistants = messages.filter((m) => field(m, 'role') === 'assistant').length;
  let seen = 0;
  for (const message of messages) {
    const role = field(message, 'role');
    const blocks = field(message, 'content');
    if (!Array.isArray(blocks)) continue;
    if (role === 'user') session.input = inputOf(blocks) ?? session.input;
    if (role !== 'assistant') continue;
    seen++;
    const last = seen === assistants;
    const stopReason = last ? field(body, 'stopReason') : 'tool_use';
    const usage = field(body, 'usage');
    addTurn(session, {
      content: blocks as ContentBlock[],
      ...(typeof stopReason === 'string' ? { stopReason } : {}),
      // The reply's usage covers all its model calls: it sits on the last one.
      ...(last && isUsage(usage) ? { usage } : {}),
    });
  }
}

/**
 * A streamed reply: each assistant message becomes a turn with its own events, timed from the
 * request (the first model call) or from the previous call's last event. A model call cut short
 * (the client left, the stream broke) is not a turn; one the model failed is a failed turn.
 */
function recordStream(session: SessionState, events: NonNullable<ProxyExchange['events']>): void {
  const parts = streamParts(events);
  let base = 0;
  const timed = (own: readonly RecordedEvent[]) =>
    own.map((e) => ({ atMs: Math.max(0, e.atMs - base), event: e.event }));
  parts.forEach((part, i) => {
    if (part.kind === 'exception') {
      const error = exceptionError(part);
      const before = parts[i - 1];
      const partial =
        before?.kind === 'message' && before.role === 'assistant' && !before.stopped ? before : undefined;
      if (error === undefined) return;
      addTurn(session, {
        content: (partial?.content ?? []) as ContentBlock[],
        error,
        ...(partial === undefined ? {} : { events: timed(partial.events) }),
      });
      return;
    }
    if (part.role === 'user') {
      session.input = inputOf(part.content) ?? session.input;
      return;
    }
    if (part.role !== 'assistant' || !part.stopped) return;
    addTurn(session, {
      content: part.content as ContentBlock[],
      ...(part.stopReason === undefined ? {} : { stopReason: part.stopReason }),
      ...(part.usage === undefined ? {} : { usage: part.usage }),
      events: timed(part.events),
    });
    base = part.events.at(-1)?.atMs ?? base;
  });
}

/** The turn input a user message's blocks give: its tool results, or its text. */
function inputOf(blocks: readonly unknown[]): TurnInput | undefined {
  const results = blocks.filter((b): b is ToolResultBlock => field(b, 'type') === 'tool_result');
  if (results.length > 0) return { toolResults: results };
  const text = blocks.filter((b) => field(b, 'type') === 'text' && typeof field(b, 'text') === 'string');
  if (text.length === 0) return undefined;
  return { user: text.map((b) => ({ type: 'text' as const, text: field(b, 'text') as string })) };
}

/** A send body's `content` as text blocks; undefined for a resume (no content). */
function userText(content: unknown): Array<{ type: 'text'; text: string }> | undefined {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  if (!Array.isArray(content)) return undefined;
  const blocks = content.filter((b) => field(b, 'type') === 'text' && typeof field(b, 'text') === 'string');
  return blocks.map((b) => ({ type: 'text' as const, text: field(b, 'text') as string }));
}

/** Error codes a failing model answers with (a ModelError's codes). */
const MODEL_ERROR_CODES: ReadonlySet<unknown> = new Set(['model_error', 'no_script_match']);

/** The model's failure in an error body, else undefined (faults, conflicts, the proxy's own errors). */
function modelErrorOf(body: unknown): { code: string; message: string } | undefined {
  const error = field(body, 'error');
  const code = field(error, 'code');
  const message = field(error, 'message');
  if (!MODEL_ERROR_CODES.has(code) || typeof message !== 'string') return undefined;
  return { code: code as string, message };
}

/** A model failure told by an exception event; other kinds (faults, shutdown, quotas) are not the model's. */
function exceptionError(
  part: Extract<StreamPart, { kind: 'exception' }>,
): { code: string; message: string } | undefined {
  const { code, message } = part;
  if (part.eventKind !== 'modelStreamErrorException' || typeof message !== 'string') return undefined;
  return { code: typeof code === 'string' ? code : 'model_error', message };
}

function decode(segment: string | undefined): string {
  try {
    return decodeURIComponent(segment ?? '');
  } catch {
    return segment ?? '';
  }
}
