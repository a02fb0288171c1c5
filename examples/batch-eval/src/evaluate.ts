import { APIError, type MessageReply, type Parley } from '@parley/sdk';
import type { Prompt } from './prompts.js';

export type EvalStatus = 'pass' | 'fail' | 'error';

export interface EvalResult {
  id: string;
  status: EvalStatus;
  /** Time of the buffered send, in ms. */
  latencyMs: number;
  /** The reply's stop reason (`undefined` only for a reply the `recover` option took from the session without one). */
  stopReason?: string | undefined;
  /** Why it failed or errored. */
  detail?: string;
}

/**
 * Sends one prompt in a session of its own through the buffered endpoint and checks the answer:
 * `pass` when it contains `expect` (or there is no expectation), `fail` when not, `error` when the
 * request failed (the error's status and code are in `detail`).
 */
export async function evaluatePrompt(
  client: Parley,
  prompt: Prompt,
  signal?: AbortSignal,
): Promise<EvalResult> {
  const options = signal ? { signal } : {};
  const started = performance.now();
  let reply: MessageReply;
  try {
    const { sessionId } = await client.sessions.create({}, options);
    const sendStarted = performance.now();
    reply = await client.messages.send(sessionId, { content: prompt.prompt }, options);
    return judge(prompt, reply, Math.round(performance.now() - sendStarted));
  } catch (error) {
    return {
      id: prompt.id,
      status: 'error',
      latencyMs: Math.round(performance.now() - started),
      detail: describe(error),
    };
  }
}

function judge(prompt: Prompt, reply: MessageReply, latencyMs: number): EvalResult {
  const base = { id: prompt.id, latencyMs, stopReason: reply.stopReason };
  const answer = answerText(reply);
  if (prompt.expect === undefined || answer.includes(prompt.expect)) return { ...base, status: 'pass' };
  return { ...base, status: 'fail', detail: `expected "${prompt.expect}" in "${shorten(answer, 60)}"` };
}

/** The text of every assistant message of the reply, joined. */
function answerText(reply: MessageReply): string {
  return reply.messages
    .filter((message) => message.role === 'assistant')
    .flatMap((message) => message.content)
    .map((block) => (block.type === 'text' ? block.text : ''))
    .join('\n');
}

function describe(error: unknown): string {
  // Status, code and the server's message; the method, URL and request id are noise in a table.
  if (error instanceof APIError) {
    return `${error.status}${error.code ? ` ${error.code}` : ''}: ${error.serverMessage ?? 'no error message'}`;
  }
  return error instanceof Error ? error.message : String(error);
}

function shorten(text: string, max: number): string {
  const flat = text.replaceAll('\n', ' ');
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}
