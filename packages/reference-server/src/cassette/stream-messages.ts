import { EXCEPTION_EVENT_KINDS } from '@parley/protocol';
import { MessageFold, parseToolInput } from '@parley/protocol/reply-folding';
import type { RecordedEvent } from './cassette-format.js';
import { asArray, field, isUsage, type UsageValue } from './json-fields.js';

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

interface OpenMessage {
  role: string;
  index: number | undefined;
  events: RecordedEvent[];
  /** Its content as folded so far (blocks are never closed: a stream cut short keeps them). */
  fold: MessageFold;
  /** The content-block index of each folded block. */
  positions: Map<unknown, number>;
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
        fold: new MessageFold(),
        positions: new Map(),
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
    const block = open.fold.start(position, field(payload, 'start'));
    if (block !== undefined && !open.positions.has(block)) open.positions.set(block, position);
  } else if (kind === 'contentBlockDelta' && typeof position === 'number') {
    const step = open.fold.delta(position, field(payload, 'delta'));
    if (step !== undefined && !open.positions.has(step.block)) open.positions.set(step.block, position);
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
  const positionOf = (block: unknown) => open.positions.get(block) ?? 0;
  return [...open.fold.content]
    .sort((a, b) => positionOf(a) - positionOf(b))
    .map((block) =>
      block.type === 'tool_use' ? { ...block, input: inputOf(open.fold.inputText(block)) } : block,
    );
}

function inputOf(json: string): unknown {
  try {
    return parseToolInput(json);
  } catch {
    return {};
  }
}
