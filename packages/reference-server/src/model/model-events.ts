import type { ContentBlock, Message } from '@parley/protocol';

/**
 * Tool input JSON is cut into fragments of at most this many characters (always at least two
 * fragments), so a client sees a tool's input arrive piece by piece, as from a real model.
 */
export const DEFAULT_TOOL_INPUT_FRAGMENT_LENGTH = 4;

/**
 * Cuts text into word-sized chunks for `contentBlockDelta` events. Each chunk keeps the whitespace
 * that follows its word (the first also keeps any leading whitespace), so joining the chunks gives
 * back the exact text.
 */
export function textChunks(text: string): string[] {
  if (text === '') return [];
  return text.match(/\s*\S+\s*/g) ?? [text];
}

/**
 * Cuts the JSON text of a tool input into two or more fragments of at most `length` characters
 * (code points), as a real model streams them, so a consumer that forgets to join fragments fails
 * visibly. Never splits a surrogate pair.
 */
export function jsonFragments(json: string, length = DEFAULT_TOOL_INPUT_FRAGMENT_LENGTH): string[] {
  const chars = Array.from(json);
  if (chars.length < 2) return [json, ''];
  const count = Math.max(2, Math.ceil(chars.length / Math.max(1, Math.floor(length))));
  const size = Math.ceil(chars.length / count);
  const fragments: string[] = [];
  for (let start = 0; start < chars.length; start += size) {
    fragments.push(chars.slice(start, start + size).join(''));
  }
  return fragments;
}

/** The stand-in tokenizer: one token per whitespace-separated word. */
export function countWords(text: string): number {
  let count = 0;
  for (const word of text.split(/\s+/)) if (word !== '') count++;
  return count;
}

/** Tokens of one content block as the stand-in models count them (JSON counted as its compact text). */
export function countBlockWords(block: ContentBlock): number {
  switch (block.type) {
    case 'text':
      return countWords(block.text);
    case 'tool_use':
      return countWords(block.name) + countWords(JSON.stringify(block.input));
    case 'tool_result': {
      let words = 0;
      for (const part of block.content) {
        words += part.type === 'text' ? countWords(part.text) : countWords(JSON.stringify(part.json) ?? '');
      }
      return words;
    }
  }
}

/** Input tokens of a request: the words of every live message it carries. */
export function countInputTokens(messages: readonly Message[]): number {
  let words = 0;
  for (const message of messages) for (const block of message.content) words += countBlockWords(block);
  return words;
}

/**
 * A fresh toolUseId in Bedrock's style: `tooluse_` and 20 random hex digits. Uses the Web Crypto
 * global so it runs in browsers (msw) as well as Node.
 */
export function newToolUseId(): string {
  return 'tooluse_' + globalThis.crypto.randomUUID().replaceAll('-', '').slice(0, 20);
}
