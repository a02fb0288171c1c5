import type {
  ContentBlock,
  Role,
  StopReason,
  TextBlock,
  ToolResultBlock,
  ToolResultContent,
  ToolUseBlock,
} from '../wire/index.js';
import type { StreamEventItem } from './stream-events.js';

/** A message as rebuilt from the events so far. The authoritative copy is in `finalReply()`. */
export interface MessageSnapshot {
  role: Role;
  index: number;
  content: ContentBlock[];
  /** Set by `messageStop` (assistant messages only). */
  stopReason?: StopReason;
  /** True once `messageStop` was received. */
  complete: boolean;
}

/** What the accumulator reports while it rebuilds messages. */
export interface AccumulatorCallbacks {
  text(delta: string, snapshot: string, message: MessageSnapshot): void;
  toolUse(block: ToolUseBlock, message: MessageSnapshot): void;
  message(message: MessageSnapshot): void;
  /** The error to throw for a tool input that is not a JSON object (it says how far the stream got). */
  broken(message: string, cause?: unknown): Error;
  /** A fragment of a tool_use block's input (only asked for partial input). */
  toolInput?(block: ToolUseBlock, fragment: string): void;
}

type OpenBlock =
  | { kind: 'text'; block: TextBlock }
  | { kind: 'toolUse'; block: ToolUseBlock; fragments: string[] }
  | { kind: 'toolResult'; block: ToolResultBlock };

/**
 * Rebuilds messages from stream events: text deltas appended, tool input fragments joined and
 * parsed once at `contentBlockStop` (`""` means `{}`), tool results collected. Deltas for a block
 * or message that is not open are dropped.
 */
export class ReplyAccumulator {
  readonly #messages = new Map<number, MessageSnapshot>();
  readonly #callbacks: AccumulatorCallbacks;
  #current: MessageSnapshot | undefined;
  #blocks = new Map<number, OpenBlock>();

  constructor(callbacks: AccumulatorCallbacks) {
    this.#callbacks = callbacks;
  }

  /** Snapshots by index order. */
  get messages(): MessageSnapshot[] {
    return [...this.#messages.values()].sort((a, b) => a.index - b.index);
  }

  apply(event: StreamEventItem): void {
    switch (event.type) {
      case 'messageStart': {
        this.#current = { role: event.role, index: event.index, content: [], complete: false };
        this.#messages.set(event.index, this.#current);
        this.#blocks = new Map();
        return;
      }
      case 'contentBlockStart':
        this.#start(event.contentBlockIndex, event.start as Record<string, unknown>);
        return;
      case 'contentBlockDelta':
        this.#delta(event.contentBlockIndex, event.delta as Record<string, unknown>);
        return;
      case 'contentBlockStop':
        this.#stop(event.contentBlockIndex);
        return;
      case 'messageStop': {
        const message = this.#current;
        if (!message) return;
        if (typeof event.stopReason === 'string') message.stopReason = event.stopReason;
        message.complete = true;
        this.#current = undefined;
        this.#callbacks.message(message);
        return;
      }
      default:
        return;
    }
  }

  #start(index: number, start: Record<string, unknown>): void {
    const message = this.#current;
    if (!message) return;
    const toolUse = start.toolUse as { toolUseId: string; name: string } | undefined;
    const toolResult = start.toolResult as { toolUseId: string; status: 'success' | 'error' } | undefined;
    let open: OpenBlock | undefined;
    if (toolUse) {
      open = {
        kind: 'toolUse',
        block: { type: 'tool_use', id: toolUse.toolUseId, name: toolUse.name, input: {} },
        fragments: [],
      };
    } else if (toolResult) {
      open = {
        kind: 'toolResult',
        block: {
          type: 'tool_result',
          tool_use_id: toolResult.toolUseId,
          content: [],
          is_error: toolResult.status === 'error',
        },
      };
    }
    if (!open) return;
    this.#blocks.set(index, open);
    message.content.push(open.block);
  }

  #delta(index: number, delta: Record<string, unknown>): void {
    const message = this.#current;
    if (!message) return;
    let open = this.#blocks.get(index);
    if (typeof delta.text === 'string') {
      if (!open) {
        // Text blocks have no contentBlockStart: the first delta opens them.
        open = { kind: 'text', block: { type: 'text', text: '' } };
        this.#blocks.set(index, open);
        message.content.push(open.block);
      }
      if (open.kind !== 'text') return;
      open.block.text += delta.text;
      if (message.role === 'assistant') this.#callbacks.text(delta.text, open.block.text, message);
      return;
    }
    const toolUse = delta.toolUse as { input?: unknown } | undefined;
    if (toolUse && typeof toolUse.input === 'string' && open?.kind === 'toolUse') {
      open.fragments.push(toolUse.input);
      this.#callbacks.toolInput?.(open.block, toolUse.input);
      return;
    }
    if (Array.isArray(delta.toolResult) && open?.kind === 'toolResult') {
      for (const part of delta.toolResult as Array<Record<string, unknown>>) {
        const content: ToolResultContent | undefined =
          typeof part.text === 'string'
            ? { type: 'text', text: part.text }
            : 'json' in part
              ? { type: 'json', json: part.json }
              : undefined;
        if (content) open.block.content.push(content);
      }
    }
  }

  #stop(index: number): void {
    const open = this.#blocks.get(index);
    const message = this.#current;
    if (!open || !message) return;
    this.#blocks.delete(index);
    if (open.kind !== 'toolUse') return;
    const text = open.fragments.join('');
    let input: unknown;
    try {
      input = text.trim() === '' ? {} : JSON.parse(text);
    } catch (cause) {
      throw this.#callbacks.broken(`The input of tool call ${open.block.id} is not valid JSON`, cause);
    }
    if (typeof input !== 'object' || input === null || Array.isArray(input)) {
      throw this.#callbacks.broken(`The input of tool call ${open.block.id} is not a JSON object`);
    }
    open.block.input = input as Record<string, unknown>;
    this.#callbacks.toolUse(open.block, message);
  }
}
