import type { Message, ToolResultBlock, ToolUseBlock } from '@parley/protocol';

/** The last `user` message of the conversation (system messages and assistant turns skipped). */
export function lastUserMessage(messages: readonly Message[]): Message | undefined {
  return findLast(messages, (message) => message.role === 'user');
}

/** The text blocks of a message joined with newlines (`''` when it has none). */
export function textOf(message: Message): string {
  const texts: string[] = [];
  for (const block of message.content) if (block.type === 'text') texts.push(block.text);
  return texts.join('\n');
}

export function hasText(message: Message): boolean {
  return message.content.some((block) => block.type === 'text');
}

export function toolResultsOf(message: Message): ToolResultBlock[] {
  return message.content.filter((block): block is ToolResultBlock => block.type === 'tool_result');
}

/** The last user message that carries text: the one that started the current tool round, if any. */
export function lastUserTextMessage(messages: readonly Message[]): Message | undefined {
  return findLast(messages, (message) => message.role === 'user' && hasText(message));
}

// Array.prototype.findLast is ES2023; the packages target ES2022.
function findLast(
  messages: readonly Message[],
  predicate: (message: Message) => boolean,
): Message | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (message !== undefined && predicate(message)) return message;
  }
  return undefined;
}

/** The tool_use block with this id, searched from the end of the conversation. */
export function findToolUse(messages: readonly Message[], toolUseId: string): ToolUseBlock | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    for (const block of messages[i]?.content ?? []) {
      if (block.type === 'tool_use' && block.id === toolUseId) return block;
    }
  }
  return undefined;
}
