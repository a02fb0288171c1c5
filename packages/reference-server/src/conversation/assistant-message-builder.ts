import type { ContentBlock, JsonObject, StopReason, Usage } from '@parley/protocol';
import { ModelError, type ModelEvent } from '../model/model.js';

type OpenBlock =
  // The text's deltas, joined once at the end: one flat string, not a chain of concatenations.
  | { kind: 'text'; position: number; parts: string[]; open: boolean }
  | {
      kind: 'tool';
      position: number;
      id: string;
      name: string;
      input: string;
      parsed?: JsonObject;
      open: boolean;
    };

/** Emits one stream event (Bedrock shape, Parley indexes). */
export type EmitEvent = (event: Record<string, unknown>) => void;

/**
 * Builds one assistant message from a model's events and forwards them as stream events. Model block
 * indexes are renumbered to positions in the message's content; a delta for a block that is not open
 * is dropped; tool input fragments are joined and parsed once, at contentBlockStop (`""` is `{}`).
 * Malformed tool input throws a {@link ModelError}.
 */
export class AssistantMessageBuilder {
  #started = false;
  #stopReason: StopReason | undefined;
  readonly #blocks = new Map<number, OpenBlock>();
  readonly #order: OpenBlock[] = [];
  usage: Usage | undefined;

  constructor(
    /** Reserves the message's index at its first event. */
    private readonly reserveIndex: () => number,
    /** Undefined when no one takes the events (a buffered reply): none is even built. */
    private readonly emit: EmitEvent | undefined,
  ) {}

  /** The index of the message, once started. */
  index: number | undefined;

  get started(): boolean {
    return this.#started;
  }

  handle(event: ModelEvent): void {
    if ('metadata' in event) {
      const usage = event.metadata.usage;
      this.usage = usage;
      this.emit?.({ metadata: event.metadata });
      return;
    }
    this.#start();
    if ('messageStart' in event) return;
    if ('contentBlockStart' in event) {
      const { contentBlockIndex, start } = event.contentBlockStart;
      if (this.#blocks.has(contentBlockIndex) || this.#stopReason !== undefined) return;
      const block: OpenBlock = {
        kind: 'tool',
        position: this.#order.length,
        id: start.toolUse.toolUseId,
        name: start.toolUse.name,
        input: '',
        open: true,
      };
      this.#add(contentBlockIndex, block);
      this.emit?.({ contentBlockStart: { contentBlockIndex: block.position, start } });
      return;
    }
    if ('contentBlockDelta' in event) {
      const { contentBlockIndex, delta } = event.contentBlockDelta;
      let block = this.#blocks.get(contentBlockIndex);
      if (block === undefined && 'text' in delta && this.#stopReason === undefined) {
        // Text blocks have no contentBlockStart: their first delta opens them.
        block = { kind: 'text', position: this.#order.length, parts: [], open: true };
        this.#add(contentBlockIndex, block);
      }
      if (block === undefined || !block.open) return;
      if (block.kind === 'text' && 'text' in delta && typeof delta.text === 'string') {
        block.parts.push(delta.text);
        this.emit?.({
          contentBlockDelta: { contentBlockIndex: block.position, delta: { text: delta.text } },
        });
      } else if (block.kind === 'tool' && 'toolUse' in delta && typeof delta.toolUse?.input === 'string') {
        block.input += delta.toolUse.input;
        this.emit?.({
          contentBlockDelta: {
            contentBlockIndex: block.position,
            delta: { toolUse: { input: delta.toolUse.input } },
          },
        });
      }
      return;
    }
    if ('contentBlockStop' in event) {
      const block = this.#blocks.get(event.contentBlockStop.contentBlockIndex);
      if (block === undefined || !block.open) return;
      this.#close(block);
      return;
    }
    if ('messageStop' in event) {
      if (this.#stopReason !== undefined) return;
      for (const block of this.#order) if (block.open) this.#close(block);
      this.#stopReason = event.messageStop.stopReason ?? 'end_turn';
      this.emit?.({ messageStop: { stopReason: this.#stopReason } });
    }
  }

  /** Ends the message (a model that stopped without messageStop ends its turn). */
  finish(): { content: ContentBlock[]; stopReason: StopReason } {
    this.#start();
    if (this.#stopReason === undefined) this.handle({ messageStop: { stopReason: 'end_turn' } });
    return { content: this.content(), stopReason: this.#stopReason ?? 'end_turn' };
  }

  /** The content so far: text as received, tool_use blocks whose input is complete. */
  content(): ContentBlock[] {
    const content: ContentBlock[] = [];
    for (const block of this.#order) {
      if (block.kind === 'text') content.push({ type: 'text', text: block.parts.join('') });
      else if (block.parsed !== undefined) {
        content.push({ type: 'tool_use', id: block.id, name: block.name, input: block.parsed });
      }
    }
    // Stored as long as the session: a copy holds no spare room (`push` reserves some).
    return content.slice();
  }

  #start(): void {
    if (this.#started) return;
    this.#started = true;
    this.index = this.reserveIndex();
    this.emit?.({ messageStart: { role: 'assistant', index: this.index } });
  }

  #add(modelIndex: number, block: OpenBlock): void {
    this.#blocks.set(modelIndex, block);
    this.#order.push(block);
  }

  #close(block: OpenBlock): void {
    block.open = false;
    if (block.kind === 'tool') block.parsed = parseToolInput(block.name, block.input);
    this.emit?.({ contentBlockStop: { contentBlockIndex: block.position } });
  }
}

function parseToolInput(name: string, text: string): JsonObject {
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    throw new ModelError(`The model produced malformed JSON input for tool ${name}`, { cause });
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new ModelError(`The model produced a tool input for ${name} that is not a JSON object`);
  }
  return value as JsonObject;
}
