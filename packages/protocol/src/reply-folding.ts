// How the content events of a streamed message fold into its content blocks, free of zod:
// `@parley/protocol/reply-folding` is its entry. The SDK's stream (its build inlines this module)
// and the reference server's cassettes fold with it, so both read a stream the same way.

export type FoldedText = { type: 'text'; text: string };
export type FoldedToolUse = { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> };
export type FoldedResultContent = { type: 'text'; text: string } | { type: 'json'; json: unknown };
export type FoldedToolResult = {
  type: 'tool_result';
  tool_use_id: string;
  content: FoldedResultContent[];
  is_error: boolean;
};
export type FoldedBlock = FoldedText | FoldedToolUse | FoldedToolResult;

/** What one `contentBlockDelta` changed, if anything. */
export type FoldedDelta =
  | { kind: 'text'; block: FoldedText; delta: string }
  | { kind: 'toolInput'; block: FoldedToolUse; fragment: string }
  | { kind: 'toolResult'; block: FoldedToolResult };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A tool input's JSON text as its value: empty (or blank) means `{}`. Throws a `SyntaxError` when
 * the text is not JSON; whether the value is an object is the caller's check.
 */
export function parseToolInput(json: string): unknown {
  return json.trim() === '' ? {} : JSON.parse(json);
}

/**
 * One message's content, folded from its events by content-block index: a text block opens on its
 * first text delta (text blocks have no `contentBlockStart`) and appends the next; a tool_use block
 * opens at its `contentBlockStart` and collects its input's JSON fragments; a tool_result block
 * opens at its `contentBlockStart` and collects its parts. A delta for a block that is not open, or
 * of another kind than the open block, is dropped.
 */
export class MessageFold {
  /** The blocks in the order they opened. */
  readonly content: FoldedBlock[] = [];
  readonly #open = new Map<number, FoldedBlock>();
  readonly #inputs = new Map<FoldedToolUse, string>();

  /** Folds a `contentBlockStart`; returns the block it opened. */
  start(position: number, start: unknown): FoldedBlock | undefined {
    const toolUse = isRecord(start) ? start.toolUse : undefined;
    const toolResult = isRecord(start) ? start.toolResult : undefined;
    let block: FoldedBlock;
    if (isRecord(toolUse)) {
      block = { type: 'tool_use', id: String(toolUse.toolUseId), name: String(toolUse.name), input: {} };
    } else if (isRecord(toolResult)) {
      block = {
        type: 'tool_result',
        tool_use_id: String(toolResult.toolUseId),
        content: [],
        is_error: toolResult.status === 'error',
      };
    } else {
      return undefined;
    }
    this.#add(position, block);
    return block;
  }

  /** Folds a `contentBlockDelta`; returns what it changed. */
  delta(position: number, delta: unknown): FoldedDelta | undefined {
    if (!isRecord(delta)) return undefined;
    const open = this.#open.get(position);
    if (typeof delta.text === 'string') {
      if (open === undefined) {
        const block: FoldedText = { type: 'text', text: '' };
        this.#add(position, block);
        return this.#appendText(block, delta.text);
      }
      return open.type === 'text' ? this.#appendText(open, delta.text) : undefined;
    }
    const input = isRecord(delta.toolUse) ? delta.toolUse.input : undefined;
    if (typeof input === 'string' && open?.type === 'tool_use') {
      this.#inputs.set(open, this.inputText(open) + input);
      return { kind: 'toolInput', block: open, fragment: input };
    }
    if (Array.isArray(delta.toolResult) && open?.type === 'tool_result') {
      for (const part of delta.toolResult) {
        if (!isRecord(part)) continue;
        if (typeof part.text === 'string') open.content.push({ type: 'text', text: part.text });
        else if ('json' in part) open.content.push({ type: 'json', json: part.json });
      }
      return { kind: 'toolResult', block: open };
    }
    return undefined;
  }

  /** Folds a `contentBlockStop`: the block is closed (a later delta at its index opens a new one). */
  stop(position: number): FoldedBlock | undefined {
    const open = this.#open.get(position);
    this.#open.delete(position);
    return open;
  }

  /** The JSON text of a tool_use block's input: its fragments so far, joined. */
  inputText(block: FoldedToolUse): string {
    return this.#inputs.get(block) ?? '';
  }

  #add(position: number, block: FoldedBlock): void {
    this.#open.set(position, block);
    this.content.push(block);
  }

  #appendText(block: FoldedText, delta: string): FoldedDelta {
    block.text += delta;
    return { kind: 'text', block, delta };
  }
}
