import type { ToolResultContent } from '@parley/protocol';
import type { ServerToolResult } from '../../conversation/server-tool.js';

/**
 * Converts an MCP tool result to a tool result the model sees. Structured content, when present, is
 * the whole result (one JSON part: MCP servers send its text rendering next to it); otherwise text
 * parts stay text and other parts (images, resources) become JSON parts as MCP wrote them.
 */
export function toServerToolResult(result: Record<string, unknown>): ServerToolResult {
  const isError = result.isError === true;
  if (result.structuredContent !== undefined && !isError) {
    return { isError, content: [{ type: 'json', json: result.structuredContent }] };
  }
  // Servers of protocol version 2024-10-07 answer `{ toolResult }` instead of `{ content }`.
  if (!Array.isArray(result.content) && 'toolResult' in result) {
    return { isError, content: [{ type: 'json', json: result.toolResult }] };
  }
  const parts: unknown[] = Array.isArray(result.content) ? result.content : [];
  const content: ToolResultContent[] = parts.map((part) =>
    isTextPart(part) ? { type: 'text', text: part.text } : { type: 'json', json: part },
  );
  return { isError, content };
}

/** An error result with one text part. */
export function errorResult(text: string): ServerToolResult {
  return { isError: true, content: [{ type: 'text', text }] };
}

function isTextPart(part: unknown): part is { type: 'text'; text: string } {
  return (
    typeof part === 'object' &&
    part !== null &&
    (part as { type?: unknown }).type === 'text' &&
    typeof (part as { text?: unknown }).text === 'string'
  );
}
