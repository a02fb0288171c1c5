import { type ContentBlock, EXCEPTION_EVENT_KINDS, type ToolResultBlock } from '@parley/protocol';
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

const SESSIONS = /^\/v1\/sessions\/?$/;
const SEND = /^\/v1\/messages\/([^/]+)(\/stream)?\/?$/;
const TOOL_RESPONSE = /^\/v1\/tools\/response\/([^/]+)\/([^/]+)\/?$/;
const HEARTBEAT = /^\/v1\/tools\/request\/([^/]+)\/([^/]+)\/heartbeat\/?$/;
const EXCEPTION_KINDS: ReadonlySet<string> = new Set(EXCEPTION_EVENT_KINDS);

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
 * of a conversation (lists, reads, rewinds, control routes), leave no trace.
 */
export function buildCassette(exchanges: readonly ProxyExchange[]): Cassette {
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
      const recorded: CassetteSession = {
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

interface OpenMessage {
  role: string;
  index: number | undefined;
  events: RecordedEvent[];
  blocks: Map<
    number,
    | { kind: 'text'; text: string }
    | { kind: 'tool'; id: string; name: string; input: string }
    | { kind: 'result'; block: ToolResultBlock }
  >;
  stopReason?: string;
  usage?: { inputTokens: number; outputTokens: number; totalTokens: number };
  stopped: boolean;
}

/**
 * A streamed reply: its events are split by message. Each assistant message becomes a turn with
 * its own events, timed from the request (the first model call) or from the previous call's last
 * event; its content comes from the final `replyStop` when the stream completed, else from the
 * events themselves.
 */
function recordStream(session: SessionState, events: NonNullable<ProxyExchange['events']>): void {
  const final = events.find((e) => 'replyStop' in e.event)?.event.replyStop;
  const finalMessages = new Map<number, unknown[]>();
  for (const message of asArray(field(final, 'messages'))) {
    const index = field(message, 'index');
    const content = field(message, 'content');
    if (typeof index === 'number' && Array.isArray(content)) finalMessages.set(index, content);
  }
  let open: OpenMessage | undefined;
  let base = 0;
  const close = () => {
    if (open === undefined) return;
    const message = open;
    open = undefined;
    const content =
      (message.index === undefined ? undefined : finalMessages.get(message.index)) ?? contentOf(message);
    if (message.role === 'user') {
      session.input = inputOf(content) ?? session.input;
      return;
    }
    if (message.role !== 'assistant' || !message.stopped) return;
    addTurn(session, {
      content: content as ContentBlock[],
      ...(message.stopReason === undefined ? {} : { stopReason: message.stopReason }),
      ...(message.usage === undefined ? {} : { usage: message.usage }),
      events: message.events.map((e) => ({ atMs: Math.max(0, e.atMs - base), event: e.event })),
    });
    base = message.events.at(-1)?.atMs ?? base;
  };
  for (const { atMs, event } of events) {
    const kind = Object.keys(event)[0] ?? '';
    const payload = event[kind];
    if (kind === 'messageStart') {
      close();
      const role = field(payload, 'role');
      const index = field(payload, 'index');
      open = {
        role: typeof role === 'string' ? role : 'unknown',
        index: typeof index === 'number' ? index : undefined,
        events: [],
        blocks: new Map(),
        stopped: false,
      };
    }
    if (kind === 'replyStop') {
      close();
      continue;
    }
    if (EXCEPTION_KINDS.has(kind)) {
      if (open?.role !== 'assistant') close();
      const error = exceptionError(kind, payload);
      if (error !== undefined) {
        const partial = open?.role === 'assistant' ? open : undefined;
        addTurn(session, {
          content: partial === undefined ? [] : (contentOf(partial) as ContentBlock[]),
          error,
          ...(partial === undefined
            ? {}
            : { events: partial.events.map((e) => ({ atMs: Math.max(0, e.atMs - base), event: e.event })) }),
        });
      }
      open = undefined;
      continue;
    }
    if (open === undefined) continue;
    open.events.push({ atMs, event });
    track(open, kind, payload);
  }
  // A stream that was cut or left by its client: the model call in progress is not a turn.
  if (open?.role === 'user') close();
}

/** Follows one event of a message, to rebuild its content when the stream has no `replyStop`. */
function track(open: OpenMessage, kind: string, payload: unknown): void {
  const position = field(payload, 'contentBlockIndex');
  if (kind === 'contentBlockStart' && typeof position === 'number') {
    const start = field(payload, 'start');
    const toolUse = field(start, 'toolUse');
    const toolResult = field(start, 'toolResult');
    if (isRecord(toolUse)) {
      open.blocks.set(position, {
        kind: 'tool',
        id: String(toolUse.toolUseId),
        name: String(toolUse.name),
        input: '',
      });
    } else if (isRecord(toolResult)) {
      open.blocks.set(position, {
        kind: 'result',
        block: {
          type: 'tool_result',
          tool_use_id: String(toolResult.toolUseId),
          content: [],
          is_error: toolResult.status === 'error',
        },
      });
    }
  } else if (kind === 'contentBlockDelta' && typeof position === 'number') {
    const delta = field(payload, 'delta');
    const block = open.blocks.get(position);
    const text = field(delta, 'text');
    const toolInput = field(field(delta, 'toolUse'), 'input');
    const results = field(delta, 'toolResult');
    if (typeof text === 'string') {
      if (block?.kind === 'text') block.text += text;
      else if (block === undefined) open.blocks.set(position, { kind: 'text', text });
    } else if (typeof toolInput === 'string' && block?.kind === 'tool') {
      block.input += toolInput;
    } else if (Array.isArray(results) && block?.kind === 'result') {
      for (const part of results) {
        if (isRecord(part) && 'json' in part) block.block.content.push({ type: 'json', json: part.json });
        else if (isRecord(part) && typeof part.text === 'string')
          block.block.content.push({ type: 'text', text: part.text });
      }
    }
  } else if (kind === 'messageStop') {
    open.stopped = true;
    const stopReason = field(payload, 'stopReason');
    if (typeof stopReason === 'string') open.stopReason = stopReason;
  } else if (kind === 'metadata') {
    const usage = field(payload, 'usage');
    if (isUsage(usage)) open.usage = usage;
  }
}

function contentOf(open: OpenMessage): unknown[] {
  return [...open.blocks.entries()]
    .sort(([a], [b]) => a - b)
    .map(([, block]) => {
      if (block.kind === 'text') return { type: 'text', text: block.text };
      if (block.kind === 'result') return block.block;
      return { type: 'tool_use', id: block.id, name: block.name, input: parseInput(block.input) };
    });
}

function parseInput(json: string): unknown {
  if (json === '') return {};
  try {
    return JSON.parse(json);
  } catch {
    return {};
  }
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
function exceptionError(kind: string, payload: unknown): { code: string; message: string } | undefined {
  const code = field(payload, 'code');
  const message = field(payload, 'message');
  if (kind !== 'modelStreamErrorException' || typeof message !== 'string') return undefined;
  return { code: typeof code === 'string' ? code : 'model_error', message };
}

function isUsage(
  value: unknown,
): value is { inputTokens: number; outputTokens: number; totalTokens: number } {
  return (
    typeof field(value, 'inputTokens') === 'number' &&
    typeof field(value, 'outputTokens') === 'number' &&
    typeof field(value, 'totalTokens') === 'number'
  );
}

function field(value: unknown, key: string): unknown {
  return isRecord(value) ? value[key] : undefined;
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function decode(segment: string | undefined): string {
  try {
    return decodeURIComponent(segment ?? '');
  } catch {
    return segment ?? '';
  }
}
