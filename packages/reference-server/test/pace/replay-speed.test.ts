import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Cassette, createReferenceServer, ManualClock } from '@parley/reference-server';
import { runCli } from '@parley/reference-server/node';
import { describe, expect, it } from 'vitest';
import { driveUntil } from './helpers.js';

const AUTH = { authorization: 'Bearer parley-demo-token', 'content-type': 'application/json' };

const delta = (atMs: number, text: string) => ({
  atMs,
  event: { contentBlockDelta: { contentBlockIndex: 0, delta: { text } } },
});

/** A streamed turn recorded with its timings, and a buffered one (an old cassette's kind) without. */
const CASSETTE: Cassette = {
  format: 'parley-cassette',
  version: 2,
  sessions: [
    {
      customizations: null,
      turns: [
        {
          input: { user: [{ type: 'text', text: 'Hi' }] },
          content: [{ type: 'text', text: 'Hello there' }],
          stopReason: 'end_turn',
          events: [
            { atMs: 1000, event: { messageStart: { role: 'assistant', index: 1 } } },
            delta(1500, 'Hello '),
            delta(2500, 'there'),
            { atMs: 2500, event: { contentBlockStop: { contentBlockIndex: 0 } } },
            { atMs: 2500, event: { messageStop: { stopReason: 'end_turn' } } },
          ],
        },
        {
          input: { user: [{ type: 'text', text: 'Again' }] },
          content: [{ type: 'text', text: 'Untimed answer' }],
          stopReason: 'end_turn',
        },
      ],
    },
  ],
};

async function replayTimes(options: { pace?: 'recorded' | 'fast'; speed?: number }) {
  const clock = new ManualClock(0);
  const server = createReferenceServer({ clock, replay: { cassette: CASSETTE, ...options } });
  const created = await server.fetch(
    new Request('http://parley.test/v1/sessions', { method: 'POST', headers: AUTH }),
  );
  const { sessionId } = (await created.json()) as { sessionId: string };
  const times: Array<Array<[number, string]>> = [];
  for (const content of ['Hi', 'Again']) {
    let finished = false;
    const reading = (async () => {
      const response = await server.fetch(
        new Request(`http://parley.test/v1/messages/${sessionId}/stream`, {
          method: 'POST',
          headers: AUTH,
          body: JSON.stringify({ content }),
        }),
      );
      await response.text();
      finished = true;
    })();
    await driveUntil(clock, () => finished);
    await reading;
    const entry = server.journal.last({ path: '/v1/messages/*/stream' });
    times.push((entry?.response?.eventTimes ?? []).slice(4, 7).map(({ atMs, kind }) => [atMs, kind]));
  }
  return times;
}

describe('replay speed', () => {
  it('speed plays the recorded cadence that many times faster on the server clock (exact event times)', async () => {
    const [timed] = await replayTimes({ speed: 10 });
    expect(timed).toEqual([
      [100, 'messageStart'],
      [150, 'contentBlockDelta'],
      [250, 'contentBlockDelta'],
    ]);
  });

  it('the recorded pace without a speed keeps the recorded gaps', async () => {
    const [timed] = await replayTimes({ pace: 'recorded' });
    expect(timed).toEqual([
      [1000, 'messageStart'],
      [1500, 'contentBlockDelta'],
      [2500, 'contentBlockDelta'],
    ]);
  });

  it('a turn recorded without timings (an old cassette, a buffered reply) replays at once at any speed', async () => {
    const [, untimed] = await replayTimes({ speed: 10 });
    expect(untimed?.map(([at]) => at)).toEqual([0, 0, 0]);
  });

  it('pace fast plays everything at once', async () => {
    const [timed] = await replayTimes({ pace: 'fast' });
    expect(timed?.map(([at]) => at)).toEqual([0, 0, 0]);
  });

  it('a speed of 0, a negative one or one with pace fast is a TypeError when the server is created', () => {
    expect(() => createReferenceServer({ replay: { cassette: CASSETTE, speed: 0 } })).toThrow(
      /replay\.speed: must be a number > 0, got 0/,
    );
    expect(() => createReferenceServer({ replay: { cassette: CASSETTE, speed: -2 } })).toThrow(
      /replay\.speed/,
    );
    expect(() => createReferenceServer({ replay: { cassette: CASSETTE, speed: 2, pace: 'fast' } })).toThrow(
      /needs pace 'recorded'/,
    );
  });
});

function io() {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { stdout: (t: string) => out.push(t), stderr: (t: string) => err.push(t) } };
}

describe('the pace flags of parley-server', () => {
  it('--pace ttft=400ms,tps=40,jitter=0.2,seed=7 sets the server’s pace', async () => {
    const { out, io: streams } = io();
    const result = await runCli(['--port', '0', '--pace', 'ttft=400ms,tps=40,jitter=0.2,seed=7'], streams);
    try {
      expect(result.running?.server.pace).toEqual({ ttftMs: 400, wordsPerSecond: 40, jitter: 0.2, seed: 7 });
      expect(out.join('')).toContain(
        '  pace:           first event after 400 ms, 40 words/s, jitter 0.2 (seed 7)',
      );
    } finally {
      await result.running?.close();
    }
  });

  it('PARLEY_PACE sets it too, ttft in seconds and jitter as a percentage', async () => {
    const { io: streams } = io();
    const result = await runCli(['--port', '0'], streams, { env: { PARLEY_PACE: 'ttft=0.5s,jitter=20%' } });
    try {
      expect(result.running?.server.pace).toEqual({ ttftMs: 500, jitter: 0.2 });
    } finally {
      await result.running?.close();
    }
  });

  it('a negative or non-numeric pace figure, an unknown key and --replay-speed 0 exit 2 naming the flag', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'parley-pace-'));
    const file = join(dir, 'c.json');
    await writeFile(file, JSON.stringify(CASSETTE));
    const cases: Array<[string[], RegExp]> = [
      [
        ['--pace', 'tps=-40'],
        /option '--pace <settings>' argument 'tps=-40' is invalid\. tps=-40: must be a number >= 0/,
      ],
      [
        ['--pace', 'ttft=fast'],
        /option '--pace <settings>' argument 'ttft=fast' is invalid\. ttft=fast: must be a number/,
      ],
      [['--pace', 'jitter=1.5'], /--pace <settings>.*jitter=1\.5: must be from 0 to 1/],
      [['--pace', 'tps=0'], /--pace <settings>.*tps=0: words per second must be > 0/],
      [['--pace', 'speed=2'], /--pace <settings>.*"speed" is not a pace setting/],
      [['--pace', 'seed=x'], /--pace <settings>.*seed=x: must be an integer/],
      [
        ['--replay', file, '--replay-speed', '0'],
        /option '--replay-speed <multiple>' argument '0' is invalid\. must be a number > 0/,
      ],
      [['--replay', file, '--replay-speed', 'fast'], /--replay-speed <multiple>.*must be a number > 0/],
      [
        ['--replay', file, '--replay-speed', '10', '--replay-pace', 'fast'],
        /--replay-speed 10 .*not with --replay-pace fast/,
      ],
      [['--replay-speed', '10'], /--replay-speed 10 needs --replay <file>/],
    ];
    for (const [argv, message] of cases) {
      const { err, io: streams } = io();
      const result = await runCli(['--port', '0', ...argv], streams);
      await result.running?.close();
      expect(result.exitCode, argv.join(' ')).toBe(2);
      expect(err.join(''), argv.join(' ')).toMatch(message);
    }
    const { err, io: streams } = io();
    expect((await runCli(['--port', '0'], streams, { env: { PARLEY_PACE: 'tps=-1' } })).exitCode).toBe(2);
    expect(err.join('')).toMatch(/environment variable PARLEY_PACE value 'tps=-1' is invalid/);
  });

  it('--replay-speed 10 replays at the recorded pace ten times faster', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'parley-pace-'));
    const file = join(dir, 'c.json');
    await writeFile(file, JSON.stringify(CASSETTE));
    const { io: streams } = io();
    const result = await runCli(['--port', '0', '--replay', file, '--replay-speed', '10'], streams);
    try {
      expect(result.exitCode).toBeUndefined();
    } finally {
      await result.running?.close();
    }
  });
});
