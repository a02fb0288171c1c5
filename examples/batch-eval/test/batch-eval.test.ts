import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createReferenceServer, DEMO_USER } from '@parley/reference-server';
import { Parley } from '@parley/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLE_FILE, runCli } from '../src/cli.js';
import { runBatch } from '../src/run-batch.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'batch-eval-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function jsonl(name: string, lines: string[]): Promise<string> {
  const file = join(dir, name);
  await writeFile(file, `${lines.join('\n')}\n`);
  return file;
}

function sink(isTTY = false) {
  let text = '';
  return { isTTY, write: (chunk: string) => (text += chunk), text: () => text };
}

/** The rows of the summary table: the lines between the rule under the header and the blank line. */
function tableRows(text: string): string[][] {
  const lines = text.split('\n');
  const start = lines.findIndex((line) => line.startsWith('──')) + 1;
  const end = lines.indexOf('', start);
  return lines.slice(start, end).map((line) => line.split(/ {2,}/));
}

describe('batch-eval', () => {
  it('exits 0 and prints a pass row per prompt when every expectation holds', async () => {
    const file = await jsonl('pass.jsonl', [
      '{"id":"echo","prompt":"Hello there","expect":"You said: Hello there"}',
      '{"id":"fox","prompt":"/say The quick brown fox.","expect":"brown fox"}',
      '',
      '{"id":"free","prompt":"/say Anything."}',
    ]);
    const output = sink();
    const errors = sink();
    const code = await runCli([file, '--concurrency', '2'], { output, errors });

    expect(errors.text()).toBe('');
    expect(code).toBe(0);
    const text = output.text();
    expect(text).toMatch(/^3 prompts from .*pass\.jsonl → http:\/\/127\.0\.0\.1:\d+ \(concurrency 2\)\n/);
    // Not a terminal: one plain progress line per prompt instead of a bar.
    expect(text.match(/^\[\d\/3\] \w+: pass \(\d+ ms\)$/gm)).toHaveLength(3);
    expect(text).toMatch(/^id +status +latency +stop reason +detail$/m);
    expect(tableRows(text).map((row) => [row[0], row[1], row[3]])).toEqual([
      ['echo', 'pass', 'end_turn'],
      ['fox', 'pass', 'end_turn'],
      ['free', 'pass', 'end_turn'],
    ]);
    expect(tableRows(text).every((row) => /^\d+ ms$/.test(row[2]!))).toBe(true);
    expect(text).toContain('3 prompts: 3 passed, 0 failed, 0 errors');
  });

  it('exits 1 with a fail row for a missed expectation and an error row for a model error', async () => {
    const file = await jsonl('fail.jsonl', [
      '{"id":"ok","prompt":"/say Paris is in France.","expect":"France"}',
      '{"id":"wrong","prompt":"/say Paris is the capital of France.","expect":"Berlin"}',
      '{"id":"broken","prompt":"/fail Upstream overloaded"}',
    ]);
    const output = sink();
    const code = await runCli([file], { output, errors: sink() });

    expect(code).toBe(1);
    expect(tableRows(output.text()).map((row) => [row[0], row[1], row[3], row[4]])).toEqual([
      ['ok', 'pass', 'end_turn', undefined],
      ['wrong', 'fail', 'end_turn', 'expected "Berlin" in "Paris is the capital of France."'],
      ['broken', 'error', '-', '502 model_error: Upstream overloaded'],
    ]);
    expect(output.text()).toContain('3 prompts: 1 passed, 1 failed, 1 errors');
  });

  it('reports bad lines with their line numbers, runs the good ones, and exits 1', async () => {
    const file = await jsonl('bad.jsonl', [
      '{"id":"ok","prompt":"Hi"}',
      'not json',
      '{"id":"no-prompt"}',
      '{"id":"ok","prompt":"again"}',
    ]);
    const output = sink();
    const errors = sink();
    const code = await runCli([file], { output, errors });

    expect(code).toBe(1);
    const reported = errors.text().split('\n').filter(Boolean);
    expect(reported).toHaveLength(3);
    expect(reported[0]).toMatch(/bad\.jsonl:2: not JSON/);
    expect(reported[1]).toMatch(/bad\.jsonl:3: .*prompt/);
    expect(reported[2]).toMatch(/bad\.jsonl:4: id "ok" is already used on line 1/);
    expect(tableRows(output.text()).map((row) => row[0])).toEqual(['ok']);
    expect(output.text()).toContain('3 bad lines skipped');
  });

  it('draws a progress bar in place on a terminal', async () => {
    const output = sink(true);
    const code = await runCli([EXAMPLE_FILE], { output, errors: sink() });
    expect(code).toBe(0);
    const frames = output.text().match(/\r\[[█░]+\] \d+\/6/g) ?? [];
    expect(frames[0]).toBe(`\r[${'░'.repeat(24)}] 0/6`);
    expect(frames.at(-1)).toBe(`\r[${'█'.repeat(24)}] 6/6`);
    expect(frames).toHaveLength(7);
    expect(output.text()).not.toMatch(/^\[\d\/6\]/m);
  });

  it('keeps at most --concurrency prompts in flight', async () => {
    const server = createReferenceServer();
    let inFlight = 0;
    let most = 0;
    const client = new Parley({
      baseUrl: 'http://parley.test',
      token: DEMO_USER.token,
      fetch: async (request: Request) => {
        const counted = new URL(request.url).pathname.startsWith('/v1/messages/');
        if (counted) most = Math.max(most, ++inFlight);
        try {
          return await server.fetch(request);
        } finally {
          if (counted) inFlight--;
        }
      },
    });
    const prompts = Array.from({ length: 7 }, (_, i) => ({
      id: `p${i}`,
      prompt: '/delay 10\n/say one two three',
    }));
    const results = await runBatch(client, prompts, { concurrency: 3 });
    expect(results.map((r) => r.status)).toEqual(Array(7).fill('pass'));
    expect(results.map((r) => r.id)).toEqual(prompts.map((p) => p.id));
    expect(most).toBe(3);
  });

  it('passes on the shipped example file and fails on the shipped file with a failure', async () => {
    expect(await runCli([EXAMPLE_FILE], { output: sink(), errors: sink() })).toBe(0);
    const withFailure = EXAMPLE_FILE.replace('prompts.example.jsonl', 'prompts.with-failure.jsonl');
    expect(await runCli([withFailure], { output: sink(), errors: sink() })).toBe(1);
  });

  it('rejects a bad --concurrency with exit code 2', async () => {
    const errors = sink();
    expect(await runCli(['--concurrency', '0'], { output: sink(), errors })).toBe(2);
    expect(errors.text()).toContain('--concurrency must be an integer >= 1');
  });
});
