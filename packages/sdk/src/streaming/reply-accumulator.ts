import type { ContentBlock, Role, StopReason, ToolUseBlock } from '../wire/index.js';
import { MessageFold, parseToolInput } from './reply-folding.js';
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

/**
 * Rebuilds messages from stream events, folding each message's content as the protocol's
 * `MessageFold` does (reply-folding.ts); tool input fragments are parsed once at
 * `contentBlockStop` (`""` means `{}`).
 */
export class ReplyAccumulator {
  readonly #messages = new Map<number, MessageSnapshot>();
  readonly #callbacks: AccumulatorCallbacks;
  #current: { message: MessageSnapshot; fold: MessageFold } | undefined;

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
        const fold = new MessageFold();
        const message: MessageSnapshot = {
          role: event.role,
          index: event.index,
          content: fold.content,
          complete: false,
        };
        this.#current = { message, fold };
        this.#messages.set(event.index, message);
        return;
      }
      case 'contentBlockStart':
        this.#current?.fold.start(event.contentBlockIndex, event.start);
        return;
      case 'contentBlockDelta':
        this.#delta(event.contentBlockIndex, event.delta);
        return;
      case 'contentBlockStop':
        this.#stop(event.contentBlockIndex);
        return;
      case 'messageStop': {
        const message = this.#current?.message;
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

  #delta(index: number, delta: unknown): void {
    const current = this.#current;
    if (!current) return;
    const step = current.fold.delta(index, delta);
    if (step?.kind === 'text' && current.message.role === 'assistant') {
      this.#callbacks.text(step.delta, step.block.text, current.message);
    } else if (step?.kind === 'toolInput') {
      this.#callbacks.toolInput?.(step.block, step.fragment);
    }
  }

  #stop(index: number): void {
    const current = this.#current;
    if (!current) return;
    const block = current.fold.stop(index);
    if (block?.type !== 'tool_use') return;
    let input: unknown;
    try {
      input = parseToolInput(current.fold.inputText(block));
    } catch (cause) {
      throw this.#callbacks.broken(`The input of tool call ${block.id} is not valid JSON`, cause);
    }
    if (typeof input !== 'object' || input === null || Array.isArray(input)) {
      throw this.#callbacks.broken(`The input of tool call ${block.id} is not a JSON object`);
    }
    block.input = input as Record<string, unknown>;
    this.#callbacks.toolUse(block, current.message);
  }
}
