import { Readable } from 'node:stream';
import { startServer } from '@parley/reference-server';
import { describe, expect, it } from 'vitest';
import { runCli } from '../src/cli.js';

const NOW = new Date('2026-03-14T15:09:26Z');

function sink() {
  const chunks: string[] = [];
  return { chunks, write: (chunk: string) => chunks.push(chunk), text: () => chunks.join('') };
}

function scriptedStdin(lines: string[]): Readable {
  return Readable.from(lines.map((line) => `${line}\n`));
}

describe('chat-cli', () => {
  it('streams replies and runs local tools with heartbeats against the embedded server', async () => {
    const output = sink();
    const errors = sink();
    const code = await runCli([], {
      input: scriptedStdin(['what time is it?', 'roll the dice', '/say Bye for now.', '/exit', 'never sent']),
      output,
      errors,
      toolEnvironment: { now: () => NOW, random: () => 0.5, delayMs: 300 },
    });

    expect(errors.text()).toBe('');
    expect(code).toBe(0);
    const lines = output.text().split('\n');
    expect(lines[0]).toMatch(/^Embedded reference server at http:\/\/127\.0\.0\.1:\d+$/);
    const time =
      '{"timeZone":"UTC","iso":"2026-03-14T15:09:26.000Z","local":"Saturday, 14 March 2026 at 15:09"}';
    expect(lines.filter((line) => !line.includes('♥ heartbeat')).slice(2)).toEqual([
      'you › what time is it?',
      'assistant › Let me look at the clock.',
      'tool › get_time({"timeZone":"UTC"}) …',
      expect.stringMatching(
        new RegExp(`^tool › get_time → ${escapeRegExp(time)} {2}\\(COMPLETE, [1-9]\\d* heartbeats?\\)$`),
      ),
      `assistant › Tool get_time returned ${time}.`,
      'you › roll the dice',
      'assistant › Rolling two dice.',
      'tool › roll_dice({"count":2,"sides":6}) …',
      expect.stringMatching(
        /^tool › roll_dice → \{"rolls":\[4,4\],"total":8\} {2}\(COMPLETE, [1-9]\d* heartbeats?\)$/,
      ),
      'assistant › Tool roll_dice returned {"rolls":[4,4],"total":8}.',
      'you › /say Bye for now.',
      'assistant › Bye for now.',
      'you › /exit',
      'bye',
      '',
    ]);
    // The heartbeat lines sit between a tool's start and its result.
    const startAt = lines.indexOf('tool › get_time({"timeZone":"UTC"}) …');
    expect(lines[startAt + 1]).toBe('       ♥ heartbeat');
    // The reply was streamed: the assistant's text arrived in several writes.
    const answerAt = output.chunks.indexOf('assistant › ');
    expect(output.chunks.slice(answerAt + 1, answerAt + 4)).toEqual(['Let ', 'me ', 'look ']);
  });

  it('talks to a running server given by --base-url and --token, and ends with the input', async () => {
    const server = await startServer({ port: 0, users: [{ name: 'ada', token: 'secret-token' }] });
    try {
      const output = sink();
      const code = await runCli(['--base-url', server.url, '--token', 'secret-token'], {
        input: scriptedStdin(['/tool roll_dice {"count":1,"sides":20}']),
        output,
        errors: sink(),
        toolEnvironment: { random: () => 0, delayMs: 0 },
      });
      expect(code).toBe(0);
      const text = output.text();
      expect(text).not.toContain('Embedded reference server');
      // The loop's send picked the call up (the server's lease extension): a tool that ends within a
      // beat interval of it needs no heartbeat.
      expect(text).toContain('tool › roll_dice → {"rolls":[1],"total":1}  (COMPLETE, 0 heartbeats)');
      expect(text).toContain('assistant › Tool roll_dice returned {"rolls":[1],"total":1}.');
      expect(text.endsWith('bye\n')).toBe(true);
    } finally {
      await server.close();
    }
  });

  it('prints an API error and keeps chatting', async () => {
    const server = await startServer({ port: 0 });
    try {
      const output = sink();
      const code = await runCli(['--base-url', server.url, '--token', 'parley-demo-token'], {
        input: scriptedStdin(['/fail Upstream overloaded', 'Hello there']),
        output,
        errors: sink(),
      });
      expect(code).toBe(0);
      expect(output.text()).toContain('error › ');
      expect(output.text()).toContain('Upstream overloaded');
      expect(output.text()).toContain('assistant › You said: Hello there');
    } finally {
      await server.close();
    }
  });

  it('rejects an unknown flag with exit code 2 and the usage', async () => {
    const errors = sink();
    const code = await runCli(['--nope'], { input: scriptedStdin([]), output: sink(), errors });
    expect(code).toBe(2);
    expect(errors.text()).toContain('Usage: chat-cli');
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
