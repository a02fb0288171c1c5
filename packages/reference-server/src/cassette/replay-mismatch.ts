import type { Message, ToolResultBlock } from '@parley/protocol';
import type { TurnInput } from './cassette-format.js';
import { REDACTED } from './cassette-redaction.js';

/** The input of a live model call, read from its conversation as the recorder reads it. */
export function liveInput(messages: readonly Message[]): TurnInput | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (message?.role !== 'user') continue;
    const results = message.content.filter((b): b is ToolResultBlock => b.type === 'tool_result');
    if (results.length > 0) return { toolResults: results };
    const texts: Array<{ type: 'text'; text: string }> = [];
    for (const block of message.content)
      if (block.type === 'text') texts.push({ type: 'text', text: block.text });
    return { user: texts };
  }
  return undefined;
}

/**
 * How the live input differs from the recorded one, as `expected ..., got ...`; undefined when
 * they match. Tool results are compared in order by content and error flag (their ids may differ);
 * a recorded `"[REDACTED]"` matches anything in its place.
 */
export function inputMismatch(expected: TurnInput, actual: TurnInput | undefined): string | undefined {
  if (actual === undefined) return `expected ${describe(expected)}, got a conversation with no user message`;
  if ('user' in expected && 'user' in actual) {
    if (sameJson(expected.user, actual.user)) return undefined;
    return `expected ${describe(expected)}, got ${describe(actual)}`;
  }
  if ('toolResults' in expected && 'toolResults' in actual) {
    if (expected.toolResults.length !== actual.toolResults.length) {
      return `expected ${describe(expected)}, got ${describe(actual)}`;
    }
    for (let i = 0; i < expected.toolResults.length; i++) {
      const want = expected.toolResults[i]!;
      const got = actual.toolResults[i]!;
      if (want.is_error !== got.is_error || !sameJson(want.content, got.content)) {
        return `expected tool result ${i + 1} to be ${describeResult(want)}, got ${describeResult(got)}`;
      }
    }
    return undefined;
  }
  return `expected ${describe(expected)}, got ${describe(actual)}`;
}

function describe(input: TurnInput): string {
  if ('user' in input) return `the user text ${quote(input.user.map((b) => b.text).join('\n'))}`;
  const results = input.toolResults;
  return `${results.length} tool result${results.length === 1 ? '' : 's'} [${results.map(describeResult).join(', ')}]`;
}

/** `the result {"temperatureC":18}` or `the error "City not found"`. */
function describeResult(result: ToolResultBlock): string {
  const parts = result.content.map((part) =>
    part.type === 'json' ? (JSON.stringify(part.json) ?? 'null') : JSON.stringify(part.text),
  );
  const text = parts.join(' ');
  return `the ${result.is_error ? 'error' : 'result'} ${text.length > 200 ? `${text.slice(0, 200)}...` : text}`;
}

function quote(text: string): string {
  return JSON.stringify(text.length > 200 ? `${text.slice(0, 200)}...` : text);
}

/** Deep equality of JSON values where a recorded string with `[REDACTED]` in it matches any text there. */
export function sameJson(recorded: unknown, live: unknown): boolean {
  if (typeof recorded === 'string' && recorded.includes(REDACTED)) {
    if (recorded === REDACTED) return true;
    if (typeof live !== 'string') return false;
    const pattern = recorded.split(REDACTED).map(escapeRegExp).join('[\\s\\S]*');
    return new RegExp(`^${pattern}$`).test(live);
  }
  if (Array.isArray(recorded)) {
    return (
      Array.isArray(live) &&
      recorded.length === live.length &&
      recorded.every((item, i) => sameJson(item, live[i]))
    );
  }
  if (typeof recorded === 'object' && recorded !== null) {
    if (typeof live !== 'object' || live === null || Array.isArray(live)) return false;
    const keys = Object.keys(recorded).filter((k) => (recorded as Record<string, unknown>)[k] !== undefined);
    const liveKeys = Object.keys(live).filter((k) => (live as Record<string, unknown>)[k] !== undefined);
    return (
      keys.length === liveKeys.length &&
      keys.every(
        (key) =>
          Object.hasOwn(live, key) &&
          sameJson((recorded as Record<string, unknown>)[key], (live as Record<string, unknown>)[key]),
      )
    );
  }
  return Object.is(recorded, live);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
