import type { Message } from '../../wire/index.js';

/** The text of the last assistant message not deleted; empty when there is none. */
export function lastAssistantText(messages: readonly Message[]): string {
  const last = messages.filter((m) => m.role === 'assistant' && m.deletedAt === null).at(-1);
  if (!last) return '';
  return last.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
}
