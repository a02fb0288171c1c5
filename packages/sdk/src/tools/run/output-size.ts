import { ToolOutputTooLargeError } from '../../errors/index.js';
import type { ToolResponseRequest } from '../../wire/index.js';
import type { ToolObject } from '../define/tool-schema.js';

/** UTF-8 bytes of the body `tools.respond` sends for `output`. */
export function responseBodyBytes(output: ToolObject): number {
  return utf8Length(
    JSON.stringify({ response: { ...output, state: 'COMPLETE' } } satisfies ToolResponseRequest),
  );
}

/**
 * The error for an output of `bytes` over `maxBytes`; its message is what the model reads, e.g.
 * `Tool "export" returned 2.1 MiB of output, over the server's 1 MiB limit for a request body; return less (a summary or one page of it)`.
 */
export function toolOutputTooLarge(
  toolName: string,
  bytes: number,
  maxBytes: number | undefined,
  cause?: unknown,
): ToolOutputTooLargeError {
  let [size, limit] = [
    formatBytes(bytes),
    maxBytes === undefined ? 'limit' : `${formatBytes(maxBytes)} limit`,
  ];
  // Just over the limit, both would read the same once rounded: give the exact counts.
  if (maxBytes !== undefined && size === formatBytes(maxBytes)) {
    [size, limit] = [`${bytes} bytes`, `${maxBytes}-byte limit`];
  }
  return new ToolOutputTooLargeError(
    `Tool "${toolName}" returned ${size} of output, over the server's ${limit} for a request body; ` +
      'return less (a summary or one page of it)',
    { bytes, maxBytes, cause },
  );
}

/** `512 bytes`, `64 KiB`, `2.1 MiB`: one decimal, dropped when it is 0. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  const [value, unit] = bytes < 1024 * 1024 ? [bytes / 1024, 'KiB'] : [bytes / (1024 * 1024), 'MiB'];
  const shown = Math.round(value * 10) / 10;
  return `${Number.isInteger(shown) ? shown.toFixed(0) : shown.toFixed(1)} ${unit}`;
}

/** UTF-8 length of a string without encoding it (JSON.stringify leaves no lone surrogate). */
function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) continue;
    if (code < 0x800) bytes += 1;
    else if (code >= 0xd800 && code <= 0xdbff) {
      bytes += 2; // a surrogate pair: 2 UTF-16 units, 4 bytes
      i++;
    } else bytes += 2;
  }
  return bytes;
}
