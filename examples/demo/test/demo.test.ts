import { describe, expect, it } from 'vitest';
import { QUESTION, runDemo } from '../src/demo.js';

const ANSWER = 'It is 18 °C and sunny in Paris: a fine evening for a walk along the Seine.';

describe('pnpm demo', () => {
  it('prints a streamed conversation with a heartbeat-backed tool call and the final answer', async () => {
    const writes: string[] = [];
    const result = await runDemo({ output: { write: (chunk: string) => writes.push(chunk) } });

    expect(result).toEqual({ answer: ANSWER, toolStatus: 'COMPLETE', heartbeats: expect.any(Number) });
    expect(result.heartbeats).toBeGreaterThanOrEqual(2);

    const lines = writes.join('').split('\n');
    expect(lines[0]).toMatch(/^Reference server \(in memory\) listening at http:\/\/127\.0\.0\.1:\d+$/);
    expect(lines.filter((line) => /^(you|assistant|tool) › /.test(line))).toEqual([
      `you › ${QUESTION}`,
      'assistant › Let me check the weather in Paris for you.',
      'tool › get_weather({"city":"Paris"})  ← runs here, in this process',
      expect.stringMatching(
        /^tool › \{"tempC":18,"conditions":"sunny"\} {2}\(COMPLETE after \d+ ms, \d+ heartbeats\)$/,
      ),
      `assistant › ${ANSWER}`,
    ]);

    // One line per heartbeat, printed while the tool runs: between the call and its result.
    const beats = lines.filter((line) => line.includes('♥ heartbeat'));
    expect(beats).toHaveLength(result.heartbeats);
    const callAt = lines.findIndex((line) => line.startsWith('tool › get_weather'));
    const resultAt = lines.findIndex((line) => line.startsWith('tool › {'));
    expect(lines.slice(callAt + 1, resultAt)).toEqual(beats);
  });

  it('streams the answer as it arrives, in many writes rather than one', async () => {
    const writes: string[] = [];
    await runDemo({ output: { write: (chunk: string) => writes.push(chunk) }, toolDelayMs: 0 });
    const start = writes.lastIndexOf('assistant › ');
    const deltas = writes.slice(start + 1, writes.indexOf('\n', start));
    expect(deltas.length).toBeGreaterThan(5);
    expect(deltas.join('')).toBe(ANSWER);
  });
});
