import { EXCEPTION_EVENT_KINDS, type ToolResultBlock } from '@parley/protocol';
import type { RecordedEvent } from './cassette-format.js';
import { asArray, field, isRecord, isUsage, type UsageValue } from './json-fields.js';

const EXCEPTION_KINDS: ReadonlySet<string> = new Set(EXCEPTION_EVENT_KINDS);

/** One message of a streamed reply, or the exception event that ended it. */
export type StreamPart =
  | {
      kind: 'message';
      role: string;
      /** Its events, `messageStart` first. */
      events: RecordedEvent[];
      /** Its content: from the final `replyStop` when the stream completed, else rebuilt from the events. */
      content: unknown[];
      /** Whether its `messageStop` arrived: a message cut short is not a whole model call. */
      stopped: boolean;
      stopReason?: string;
      usage?: UsageValue;
    }
  | { kind: 'exception'; eventKind: string; code: unknown; message: unknown };

type OpenBlock =
  | { kind: 'text'; text: string }
  | { kind: 'tool'; id: string; name: string; input: string }
  | { kind: 'result'; block: ToolResultBlock };

interface OpenMessage {
  role: string;
  index: number | undefined;
  events: RecordedEvent[];
  blocks: Map<number, OpenBlock>;
  stopped: boolean;
  stopReason?: string;
  usage?: UsageValue;
}

/** Splits a streamed reply's events by message (events before the first `messageStart` are left out). */
export function streamParts(events: readonly RecordedEvent[]): StreamPart[] {
  const final = events.find((e) => 'replyStop' in e.event)?.event.replyStop;
  const finalContent = new Map<number, unknown[]>();
  for (const message of asArray(field(final, 'messages'))) {
    const index = field(message, 'index');
    const content = field(message, 'content');
    if (typeof index === 'number' && Array.isArray(content)) finalContent.set(index, content);
  }
  const parts: StreamPart[] = [];
  let open: OpenMessage | undefined;
  const close = () => {
    if (open === undefined) return;
    const { role, index, events: own, stopped, stopReason, usage } = open;
    const content = (index === undefined ? undefined : finalContent.get(index)) ?? contentOf(open);
    parts.push({
      kind: 'message',
      role,
      events: own,
      content,
      stopped,
      ...(stopReason === undefined ? {} : { stopReason }),
      ...(usage === undefined ? {} : { usage }),
    });
    open = undefined;
  };
  for (const recorded of events) {
    const kind = Object.keys(recorded.event)[0] ?? '';
    const payload = recorded.event[kind];
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
    } else if (kind === 'replyStop' || EXCEPTION_KINDS.has(kind)) {
      close();
      if (kind !== 'replyStop') {
        parts.push({
          kind: 'exception',
          eventKind: kind,
          code: field(payload, 'code'),
          message: field(payload, 'message'),
        });
      }
      continue;
    }
    if (open === undefined) continue;
    open.events.push(recorded);
    track(open, kind, payload);
  }
  close();
  return parts;
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
      const block: ToolResultBlock = {
        type: 'tool_result',
        tool_use_id: String(toolResult.toolUseId),
        content: [],
        is_error: toolResult.status === 'error',
      };
      open.blocks.set(position, { kind: 'result', block });
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
        else if (isRecord(part) && typeof part.text === 'string') {
          block.block.content.push({ type: 'text', text: part.text });
        }
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
