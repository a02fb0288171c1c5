import type { ContentBlock, Message, Role, ToolUseBlock } from '@parley/protocol';

/**
 * A session's messages, retracted ones included, in index order, kept as columns: the role,
 * index and times of every message in arrays of their own, and the content of a message that is
 * one plain text block (most user messages and plain answers) as just its text. A stored message
 * costs its text plus about 40 bytes instead of a Message with its block and array (about 180
 * bytes more on a 64-bit heap).
 *
 * Reads make a fresh Message object: whoever holds one (a response, the journal, a model) never
 * sees a later retraction. Content arrays other than a plain text are the stored ones: read-only.
 */
export class MessageLog implements Iterable<Message> {
  readonly #roles: Role[] = [];
  readonly #indexes: number[] = [];
  readonly #createdAt: number[] = [];
  /** NaN while the message is live. */
  readonly #deletedAt: number[] = [];
  /** The text of a message that is one plain text block, else its content blocks. */
  readonly #content: Array<string | ContentBlock[]> = [];

  get length(): number {
    return this.#roles.length;
  }

  /** Stores a message after the others (its index is the caller's to choose, in increasing order). */
  push(message: Message): void {
    if (message.deletedAt !== null) assertTime(message.deletedAt, 'deletedAt');
    this.#roles.push(message.role);
    this.#indexes.push(message.index);
    this.#createdAt.push(message.createdAt);
    this.#deletedAt.push(message.deletedAt ?? Number.NaN);
    this.#content.push(plainText(message.content) ?? message.content);
  }

  /** The message at `position` (0 is the first stored), as a fresh Message. */
  at(position: number): Message {
    const deletedAt = this.#deletedAt[position];
    if (deletedAt === undefined) throw new RangeError(`No message at position ${position}`);
    return {
      role: this.#roles[position] as Role,
      index: this.#indexes[position] as number,
      content: this.contentAt(position),
      deletedAt: Number.isNaN(deletedAt) ? null : deletedAt,
      createdAt: this.#createdAt[position] as number,
    };
  }

  roleAt(position: number): Role | undefined {
    return this.#roles[position];
  }

  indexAt(position: number): number | undefined {
    return this.#indexes[position];
  }

  isLiveAt(position: number): boolean {
    return Number.isNaN(this.#deletedAt[position]);
  }

  /** The content of the message at `position` (a text-only message's block is made fresh). */
  contentAt(position: number): ContentBlock[] {
    const content = this.#content[position];
    if (content === undefined) throw new RangeError(`No message at position ${position}`);
    return typeof content === 'string' ? [{ type: 'text', text: content }] : content;
  }

  /** Retracts the message at `position` (a no-op for one already retracted). */
  retract(position: number, now: number): void {
    assertTime(now, 'now');
    if (this.isLiveAt(position)) this.#deletedAt[position] = now;
  }

  /** The live messages, in order. */
  live(): Message[] {
    const messages: Message[] = [];
    for (let i = 0; i < this.length; i++) if (this.isLiveAt(i)) messages.push(this.at(i));
    return messages;
  }

  /** Every message, retracted ones included, in order. */
  all(): Message[] {
    const messages: Message[] = [];
    for (let i = 0; i < this.length; i++) messages.push(this.at(i));
    return messages;
  }

  /** The position of the last live message, or -1. */
  lastLivePosition(): number {
    for (let i = this.length - 1; i >= 0; i--) if (this.isLiveAt(i)) return i;
    return -1;
  }

  /** Every tool_use block stored, retracted messages included, in order. */
  *toolUses(): Generator<ToolUseBlock> {
    for (const content of this.#content) {
      if (typeof content === 'string') continue;
      for (const block of content) if (block.type === 'tool_use') yield block;
    }
  }

  *[Symbol.iterator](): Iterator<Message> {
    for (let i = 0; i < this.length; i++) yield this.at(i);
  }
}

/** A retraction time must be a number: NaN is how the log marks a live message. */
function assertTime(value: number, name: string): void {
  if (!Number.isFinite(value)) throw new RangeError(`${name} must be a finite number of ms, got ${value}`);
}

/** The text of content that is one text block with nothing else on it, else undefined. */
function plainText(content: readonly ContentBlock[]): string | undefined {
  if (content.length !== 1) return undefined;
  const block = content[0] as ContentBlock;
  if (block.type !== 'text' || typeof block.text !== 'string') return undefined;
  for (const key in block) if (key !== 'type' && key !== 'text') return undefined;
  return block.text;
}
