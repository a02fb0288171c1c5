import type { ReferenceServer } from '@parley/reference-server';
import type { Message, Parley, RecoveryAttempt } from '@parley/sdk';
import { lookupOrder } from './lookup-order.js';

/**
 * The user's turn. The stand-in model streams "Let me look that up.", fails once mid-answer
 * (`/fail-once`), calls the tool, and answers with the `/then` line once the result is in.
 */
export const QUESTION =
  '/say Let me look that up.\n/fail-once The model is overloaded\n/tool lookup_order {"id":"A-17"}\n/then Order A-17 has shipped.';

export interface ScenarioOptions {
  client: Parley;
  /** The server the client talks to, in this process: the faults are queued on it. */
  server: ReferenceServer;
  /** What the user sees: the answer as it streams, and a line per recovery. */
  print: (text: string) => void;
  /** The wait before each recovery attempt (default: the SDK's backoff, 500 ms doubling). */
  backoff?: (attempt: number) => number;
}

export interface ScenarioResult {
  finalText: string;
  attempts: RecoveryAttempt[];
  /** The conversation as the server holds it at the end (live messages). */
  conversation: Message[];
}

/**
 * One question through `runToolLoop` with `recover`, while the server injects three faults: the
 * first send is refused with a 503 (nothing stored: the SDK sends it again), the model fails
 * mid-answer (the user message stays: the SDK resumes), and the stream of the answer is cut
 * short after the reply completed (the SDK takes the reply from the session).
 */
export async function runScenario(options: ScenarioOptions): Promise<ScenarioResult> {
  const { client, server, print } = options;
  const { sessionId } = await client.sessions.create({ tools: [lookupOrder] });
  server.faults.next({ match: { method: 'POST', path: '/v1/messages/*/stream' }, status: 503 });
  const attempts: RecoveryAttempt[] = [];
  let streamed = '';
  const result = await client.runToolLoop({
    sessionId,
    content: QUESTION,
    stream: true,
    onText: (delta) => {
      streamed += delta;
      print(delta);
    },
    onStep: (step) => {
      // A reply taken from the session (`use`) streamed only in part: show the rest of it.
      const used = step.recovery?.find((attempt) => attempt.action === 'use');
      if (used) print(`${rest(step.reply, streamed)}\n↻ ${describe(used)}`);
      print(
        `\n[step ${step.step}: ${step.toolResults.map((r) => `${r.name} ${r.status}`).join(', ') || 'no tools'}]\n`,
      );
      streamed = '';
      // The resume after the tool call: its stream ends early, after the reply was stored.
      if (step.step === 1)
        server.faults.next({ match: { path: '/v1/messages/*/stream' }, cutAfterEvents: 8 });
    },
    recover: {
      ...(options.backoff && { backoff: options.backoff }),
      onAttempt: (attempt) => {
        attempts.push(attempt);
        // `use`: the answer had completed on the server. What streamed of it stays on screen,
        // and the rest comes with the reply (shown when the step ends): nothing to clear.
        if (attempt.action === 'use') return;
        // `resume` or `resend`: what streamed of the interrupted answer was retracted on the
        // server. Say so, and start it again.
        if (streamed !== '') print(' [interrupted]');
        streamed = '';
        print(`\n↻ ${describe(attempt)}\n`);
      },
    },
  });
  print('\n');
  const conversation = await client.messages.export(sessionId);
  return { finalText: result.finalText, attempts, conversation };
}

/** The text of a reply's last assistant message past what already streamed of it. */
function rest(reply: { messages: Message[] }, shown: string): string {
  const last = reply.messages.filter((message) => message.role === 'assistant').at(-1);
  const text = last?.content.map((block) => (block.type === 'text' ? block.text : '')).join('') ?? '';
  return text.startsWith(shown) ? text.slice(shown.length) : `\n${text}`;
}

/** `retrying (1 of 3): 503 injected_fault: the message was not stored, sending it again` */
export function describe(attempt: RecoveryAttempt): string {
  const what = {
    resend: 'the message was not stored, sending it again',
    resume: 'the message is stored but not its answer, resuming',
    use: 'the reply had completed, taking it from the session',
  }[attempt.action];
  const error = attempt.error as Error & { status?: number; code?: string };
  const why = error.code ? `${error.status ?? error.name} ${error.code}` : error.name;
  return `recovery ${attempt.attempt} of ${attempt.maxAttempts} after ${attempt.delayMs} ms (${why}): ${what}`;
}
