import * as fs from 'node:fs';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type Cassette,
  createReferenceServer,
  ManualClock,
  type ScriptRules,
  turn,
} from '@parley/reference-server';
import { runCli, startServer } from '@parley/reference-server/node';
import { describe, expect, it, vi } from 'vitest';
import { writeCassetteFile } from '../../src/cassette/write-cassette-file.js';
import { DriftUpstreamError, driftReport } from '../../src/drift/drift-run.js';
import {
  converse,
  recordedUpstream,
  UPSTREAM_SCRIPT,
  UPSTREAM_TOKEN,
  USERS,
} from '../cassette/conversation.js';

/** The conversation of test/cassette/conversation.ts, recorded from a scripted upstream. */
async function recorded(): Promise<Cassette> {
  const { recorder, client } = recordedUpstream();
  await converse(client);
  return recorder.cassette();
}

/** A deployment that answers with `script`, reached in process (no socket). */
function deployment(script: ScriptRules, rewrite?: (body: string) => string) {
  const server = createReferenceServer({ users: USERS, clock: new ManualClock(1_700_000_000_000) });
  server.script(script);
  return {
    url: 'http://deployment.test',
    token: UPSTREAM_TOKEN,
    fetch: async (input: string, init: RequestInit) => {
      const response = await server.fetch(new Request(input, init));
      if (rewrite === undefined) return response;
      const headers = new Headers(response.headers);
      headers.delete('content-length');
      return new Response(rewrite(await response.text()), { status: response.status, headers });
    },
  };
}

/** The upstream's script, changed so each kind of difference shows up once. */
const MOVED_ON: ScriptRules = {
  rules: [
    { match: { hasToolError: true }, reply: turn.text('Sorry, I could not find Oslo.') },
    // The same words but one: a text difference with a high similarity.
    { match: { hasToolResult: true }, reply: turn.text('It is 19 degrees in Paris, and sunny.') },
    {
      // No text block any more, and a new input key: tool calls, events, text and usage differ.
      match: { lastUserText: 'Paris' },
      reply: turn.toolUses([
        { id: 'tooluse_paris', name: 'get_weather', input: { city: 'Paris', units: 'C' } },
      ]),
    },
    // Answers in text where it called a tool: the stop reason differs, and the next recorded
    // turn (the tool's error) has no message to compare with.
    { match: { lastUserText: 'Oslo' }, reply: turn.text('Oslo is lovely.') },
    {
      match: { lastUserText: 'joke' },
      reply: turn.text('Why do programmers prefer dark mode? The light attracts bugs.', {
        stopReason: 'max_tokens',
      }),
    },
  ],
};

describe('drift report', () => {
  it('a deployment that answers as recorded shows no drift and no violation', async () => {
    const report = await driftReport({ cassette: await recorded(), upstream: deployment(UPSTREAM_SCRIPT) });
    expect(report).toMatchObject({
      sessions: 2,
      turnsCompared: 5,
      turnsWithDrift: 0,
      drifts: 0,
      violations: 0,
      sessionsStopped: 0,
    });
    expect(report.results[0]?.turns[1]?.similarity).toBe(1);
    expect(report.results[0]?.turns[0]?.usage.live).toEqual(report.results[0]?.turns[0]?.usage.recorded);
  });

  it('finds each kind of difference: stop reason, tool calls, event kinds, message count, text and usage', async () => {
    const report = await driftReport({ cassette: await recorded(), upstream: deployment(MOVED_ON) });
    const [weather, joke] = report.results;
    const kinds = (session: typeof weather, t: number) =>
      session?.turns.find((x) => x.turn === t)?.differences.map((d) => d.kind);
    // Turn 1 (buffered): the tool call gained an input key and lost its text.
    expect(kinds(weather, 1)).toEqual(['toolCalls', 'text', 'usage']);
    expect(weather?.turns[0]?.differences[0]).toEqual({
      kind: 'toolCalls',
      recorded: 'get_weather(city)',
      live: 'get_weather(city, units)',
    });
    // Turn 2 (streamed): one word changed.
    const text = weather?.turns[1]?.differences.find((d) => d.kind === 'text');
    expect(text).toMatchObject({
      recorded: '"It is 18 degrees in Paris, and sunny."',
      live: '"It is 19 degrees in Paris, and sunny."',
    });
    expect(text?.similarity).toBeCloseTo(0.875, 3);
    // Turn 3 (streamed): text where a tool call was.
    expect(kinds(weather, 3)).toEqual(['stopReason', 'toolCalls', 'events', 'text', 'usage']);
    expect(weather?.turns[2]?.differences[2]).toEqual({
      kind: 'events',
      recorded: 'messageStart, contentBlockStart, contentBlockDelta, contentBlockStop, messageStop, metadata',
      live: 'messageStart, contentBlockDelta, contentBlockStop, messageStop, metadata',
    });
    // Turn 4: the recorded tool error has no live message to meet.
    expect(weather?.turns[3]?.differences).toEqual([
      { kind: 'messages', recorded: '4 assistant messages', live: '3 assistant messages' },
    ]);
    expect(weather?.stopped).toMatch(/turn 4: the deployment's reply has no assistant message for it/);
    expect(kinds(joke, 1)).toEqual(['stopReason']);
    expect(report.byKind).toEqual({ stopReason: 2, toolCalls: 2, events: 1, messages: 1, text: 3, usage: 3 });
    expect(report.violations).toBe(0);
  });

  it('ignore rules leave those kinds out, and a similarity threshold lets close texts pass; usage stays beside', async () => {
    const report = await driftReport({
      cassette: await recorded(),
      upstream: deployment(MOVED_ON),
      ignore: ['usage'],
      textSimilarity: 0.8,
    });
    const second = report.results[0]?.turns[1];
    expect(second?.differences).toEqual([]);
    expect(second?.similarity).toBeCloseTo(0.875, 3);
    expect(second?.usage.recorded).toBeDefined();
    expect(report.byKind.usage).toBe(0);
    expect(report.ignored).toEqual(['usage']);
  });

  it('an upstream that breaks the protocol is reported as violations, not as drift', async () => {
    const breaking = deployment(UPSTREAM_SCRIPT, (body) =>
      body.replaceAll('"heartbeatTimeoutMs":15000', '"heartbeatTimeoutMs":"15000"'),
    );
    const report = await driftReport({ cassette: await recorded(), upstream: breaking });
    expect(report.drifts).toBe(0);
    expect(report.violations).toBeGreaterThan(0);
    expect(report.proxy.rules.map((rule) => rule.path)).toContain('heartbeatTimeoutMs');
  });

  it('an unreachable upstream rejects with a DriftUpstreamError, never a partial report', async () => {
    const failing = driftReport({ cassette: await recorded(), upstream: { url: 'http://127.0.0.1:1' } });
    await expect(failing).rejects.toBeInstanceOf(DriftUpstreamError);
    await expect(failing).rejects.toThrow(/POST \/v1\/sessions answered 502 upstream_unreachable/);
  });

  it('a typo of an option is named in a warning; an unknown kind is a TypeError naming it', async () => {
    const cassette = await recorded();
    const upstream = deployment(UPSTREAM_SCRIPT);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    // @ts-expect-error: not an option
    await driftReport({ cassette, upstream, ignores: ['text'] });
    expect(warn.mock.calls).toEqual([
      ['[parley] Unknown option "ignores" for driftReport(); did you mean "ignore"?'],
    ]);
    warn.mockRestore();
    // @ts-expect-error: not a kind
    await expect(driftReport({ cassette, upstream, ignore: ['words'] })).rejects.toThrow(
      /"words" is not a kind of drift/,
    );
  });
});

function io() {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { stdout: (t: string) => out.push(t), stderr: (t: string) => err.push(t) } };
}

describe('parley-server drift', () => {
  async function setUp(script: ScriptRules) {
    const dir = await mkdtemp(join(tmpdir(), 'parley-drift-'));
    const file = join(dir, 'weather.json');
    await writeCassetteFile(file, await recorded());
    const live = await startServer({ port: 0, users: USERS, clock: new ManualClock(1_700_000_000_000) });
    live.server.script(script);
    return { dir, file, live };
  }

  it('prints what differs, writes JUnit XML, and --fail-on-drift exits 1', async () => {
    const { dir, file, live } = await setUp(MOVED_ON);
    try {
      const { out, io: streams } = io();
      const report = join(dir, 'drift.xml');
      const argv = ['drift', '--cassette', file, '--upstream', live.url, '--upstream-token', UPSTREAM_TOKEN];
      const result = await runCli([...argv, '--report', report, '--fail-on-drift'], streams);
      expect(result.exitCode).toBe(1);
      const text = out.join('');
      expect(text).toMatch(
        /drift of .*weather\.json against http:\/\/127\.0\.0\.1:\d+: 5 of 5 turns differ \(12 differences\) in 2 sessions; 0 protocol violations/,
      );
      expect(text).toContain('    toolCalls: recorded get_weather(city), live get_weather(city, units)');
      expect(text).toContain(
        '    text: similarity 0.88, recorded "It is 18 degrees in Paris, and sunny.", live "It is 19 degrees in Paris, and sunny."',
      );
      const xml = await readFile(report, 'utf8');
      expect(xml).toContain('<testsuites name="parley drift" tests="6" failures="6">');
      expect(xml).toContain(
        '<failure type="drift" message="differs: stopReason, toolCalls, events, text, usage">',
      );

      const ignoring = io();
      const json = await runCli(
        [...argv, '--ignore', 'usage,text', '--json', '--fail-on-drift'],
        ignoring.io,
      );
      expect(json.exitCode).toBe(1);
      const parsed = JSON.parse(ignoring.out.join('')) as {
        ignored: string[];
        byKind: Record<string, number>;
      };
      expect(parsed.ignored).toEqual(['usage', 'text']);
      expect(parsed.byKind).toMatchObject({ text: 0, usage: 0, stopReason: 2 });
    } finally {
      await live.close();
    }
  });

  it('exits 0 against a deployment that answers the same, even with --fail-on-drift', async () => {
    const { file, live } = await setUp(UPSTREAM_SCRIPT);
    try {
      const { out, io: streams } = io();
      const argv = [
        'drift',
        '--cassette',
        file,
        '--upstream',
        live.url,
        '--upstream-token',
        UPSTREAM_TOKEN,
        '--fail-on-drift',
      ];
      expect((await runCli(argv, streams)).exitCode).toBe(0);
      expect(out.join('')).toMatch(/0 of 5 turns differ \(0 differences\)/);
    } finally {
      await live.close();
    }
  });

  it('a report that cannot be written keeps the previous one and leaves no temporary file: exit 2, the drift still printed', async () => {
    const { dir, file, live } = await setUp(UPSTREAM_SCRIPT);
    const report = join(dir, 'drift.json');
    fs.writeFileSync(report, 'the previous report');
    const rename = fs.promises.rename;
    const spy = vi.spyOn(fs.promises, 'rename').mockImplementation(async (from, to) => {
      if (String(to) === report) throw Object.assign(new Error('EIO: i/o error, rename'), { code: 'EIO' });
      return rename(from, to);
    });
    try {
      const { out, err, io: streams } = io();
      const argv = ['drift', '--cassette', file, '--upstream', live.url, '--upstream-token', UPSTREAM_TOKEN];
      expect((await runCli([...argv, '--report', report], streams)).exitCode).toBe(2);
      expect(out.join('')).toMatch(/0 of 5 turns differ/);
      expect(err.join('')).toContain(
        `parley-server drift: --report ${report} could not be written (EIO: i/o error, rename); the previous report is kept`,
      );
    } finally {
      spy.mockRestore();
      await live.close();
    }
    expect(await readFile(report, 'utf8')).toBe('the previous report');
    expect(fs.readdirSync(dir).sort()).toEqual(['drift.json', 'weather.json']);
  });

  it('an unreachable upstream: a clear error, exit 2, no report file and nothing on stdout', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'parley-drift-'));
    const file = join(dir, 'weather.json');
    await writeCassetteFile(file, await recorded());
    const report = join(dir, 'drift.json');
    const { out, err, io: streams } = io();
    const argv = ['drift', '--cassette', file, '--upstream', 'http://127.0.0.1:1', '--report', report];
    expect((await runCli(argv, streams)).exitCode).toBe(2);
    expect(err.join('')).toMatch(
      /parley-server drift: cannot compare with http:\/\/127\.0\.0\.1:1: POST \/v1\/sessions answered 502 upstream_unreachable: .*No report was made\./,
    );
    expect(out.join('')).toBe('');
    expect(existsSync(report)).toBe(false);
  });

  it('bad flags exit 2 naming them: no --upstream, an unknown --ignore kind, a missing cassette', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['drift', '--cassette', 'x.json'], /needs --upstream <url> \(PARLEY_UPSTREAM_URL\)/],
      [
        ['drift', '--cassette', 'x.json', '--upstream', 'http://h', '--ignore', 'words'],
        /option '--ignore <kinds>' argument 'words' is invalid\. "words" is not a kind of drift/,
      ],
      [['drift', '--upstream', 'http://h'], /required option '--cassette <file>' not specified/],
      [
        ['drift', '--cassette', '/nonexistent/x.json', '--upstream', 'http://127.0.0.1:1'],
        /--cassette \/nonexistent\/x\.json: Invalid cassette .*ENOENT/,
      ],
    ];
    for (const [argv, message] of cases) {
      const { err, io: streams } = io();
      expect((await runCli(argv, streams)).exitCode, argv.join(' ')).toBe(2);
      expect(err.join(''), argv.join(' ')).toMatch(message);
    }
  });
});
