import { closeSync, ftruncateSync, openSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Cassette } from '@parley/reference-server';
import { runCli } from '@parley/reference-server/node';
import { describe, expect, it } from 'vitest';
import { lintCassetteFile } from '../../src/cassette/cassette-lint.js';

const turn = (text: string) => ({
  input: { user: [{ type: 'text' as const, text }] },
  content: [{ type: 'text' as const, text: `Answer to ${text}` }],
  stopReason: 'end_turn',
});

function cassette(overrides: Partial<Cassette> = {}): Cassette {
  return {
    format: 'parley-cassette',
    version: 2,
    recordedAt: '2026-11-01T00:00:00.000Z',
    upstream: 'https://parley.example.com',
    parleyVersion: '0.1.0',
    sessions: [
      { test: 'weather > Paris', customizations: null, turns: [turn('Paris?'), turn('And tomorrow?')] },
      { test: 'weather > Rome', customizations: null, turns: [turn('Rome?')] },
    ],
    ...overrides,
  };
}

async function file(content: unknown, name = 'c.json'): Promise<string> {
  const path = join(await mkdtemp(join(tmpdir(), 'parley-lint-')), name);
  await writeFile(path, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  return path;
}

function io() {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { stdout: (t: string) => out.push(t), stderr: (t: string) => err.push(t) } };
}

const NOW = Date.parse('2026-11-28T00:00:00.000Z');

describe('cassette lint', () => {
  it('a clean cassette has no finding and exits 0', async () => {
    const path = await file(cassette());
    const result = lintCassetteFile(path, { expiresIn: '30d', now: NOW });
    expect(result).toMatchObject({ valid: true, sessions: 2, turns: 3, expiry: 'fresh', findings: [] });
    const { out, io: streams } = io();
    expect((await runCli(['cassette', 'lint', path], streams)).exitCode).toBe(0);
    expect(out.join('')).toMatch(/c\.json: ok \(\d+ bytes, 2 sessions, 3 turns, recorded 2026-11-01/);
  });

  it('a protocol-invalid cassette is reported with the field paths a load names', async () => {
    const bad = cassette();
    (bad.sessions[0]?.turns[0] as Record<string, unknown>).events = [
      { atMs: 0, event: { metadata: { usage: { inputTokens: 'seven', outputTokens: 1, totalTokens: 8 } } } },
    ];
    const result = lintCassetteFile(await file(bad));
    expect(result.valid).toBe(false);
    expect(result.findings).toContainEqual(
      expect.objectContaining({
        rule: 'invalid',
        severity: 'error',
        path: 'sessions.0.turns.0.events.0.event.metadata.usage.inputTokens',
      }),
    );
    expect(lintCassetteFile(await file('{"format":')).findings[0]?.message).toMatch(/not valid JSON/);
  });

  it('every invalid field is reported in one run, format and protocol together, each path printed once', async () => {
    const bad: { sessions: unknown[] } = cassette({ sessions: [] });
    const streamed = (usage: unknown) => ({
      ...turn('Oslo?'),
      events: [{ atMs: 0, event: { metadata: { usage } } }],
    });
    // 25 turns each with a bad usage (a load lists 20), and a session whose events break the protocol
    // beside a format error elsewhere.
    bad.sessions = [
      {
        customizations: null,
        turns: Array.from({ length: 25 }, () => ({ ...turn('x'), usage: { inputTokens: 'seven' } })),
      },
      {
        customizations: 'none',
        turns: [streamed({ inputTokens: 'seven', outputTokens: 1, totalTokens: 8 })],
      },
    ];
    const path = await file(bad);
    const invalid = lintCassetteFile(path).findings.filter((f) => f.rule === 'invalid');
    const paths = invalid.map((f) => f.path);
    expect(paths).toContain('sessions.0.turns.24.usage.inputTokens');
    expect(paths).toContain('sessions.1.customizations');
    expect(paths).toContain('sessions.1.turns.0.events.0.event.metadata.usage.inputTokens');
    expect(new Set(paths).size).toBe(paths.length);
    expect(invalid.length).toBeGreaterThan(25 * 3);
    const { out, io: streams } = io();
    expect((await runCli(['cassette', 'lint', path], streams)).exitCode).toBe(1);
    const line = out
      .join('')
      .split('\n')
      .find((l) => l.includes('sessions.1.customizations'));
    expect(line?.split('sessions.1.customizations')).toHaveLength(2);
  });

  it('a hand-edited stopReason is an error: against the recorded messageStop, and against the tool calls', async () => {
    const edited = cassette();
    const [paris] = edited.sessions;
    Object.assign(paris?.turns[0] ?? {}, {
      stopReason: 'max_tokens',
      events: [
        { atMs: 0, event: { messageStart: { role: 'assistant', index: 1 } } },
        { atMs: 1, event: { messageStop: { stopReason: 'end_turn' } } },
      ],
    });
    Object.assign(paris?.turns[1] ?? {}, { stopReason: 'tool_use' });
    Object.assign(edited.sessions[1]?.turns[0] ?? {}, {
      content: [{ type: 'tool_use', id: 'tooluse_1', name: 'get_weather', input: { city: 'Rome' } }],
    });
    const findings = lintCassetteFile(await file(edited)).findings;
    expect(findings.map((f) => [f.rule, f.severity, f.path])).toEqual([
      ['stop_reason', 'error', 'sessions.0.turns.0.stopReason'],
      ['stop_reason', 'error', 'sessions.0.turns.1.stopReason'],
      ['stop_reason', 'error', 'sessions.1.turns.0.stopReason'],
    ]);
    expect(findings[0]?.message).toContain('a streamed replay sends "end_turn", a buffered one "max_tokens"');
  });

  it('token-like strings left in the cassette are errors naming where, never printing the value', async () => {
    const leaky = cassette();
    (leaky.sessions[0] as { customizations: unknown }).customizations = {
      sessionData: { apiKey: 'live-key-0123456789', region: 'eu' },
    };
    (leaky.sessions[1]?.turns[0] as { content: unknown }).content = [
      { type: 'text', text: 'Use Authorization: Bearer abcdefghijklmnop1234 next time' },
    ];
    const path = await file(leaky);
    const found = lintCassetteFile(path).findings.filter((f) => f.rule === 'token_like');
    expect(found.map((f) => f.path)).toEqual([
      'sessions.0.customizations.sessionData.apiKey',
      'sessions.1.turns.0.content.0.text',
    ]);
    const { out, io: streams } = io();
    expect((await runCli(['cassette', 'lint', '--json', path], streams)).exitCode).toBe(1);
    expect(out.join('')).not.toContain('live-key-0123456789');
    expect(out.join('')).not.toContain('abcdefghijklmnop1234');
    // A redacted value and the public demo token are fine.
    const clean = cassette();
    (clean.sessions[0] as { customizations: unknown }).customizations = {
      sessionData: { apiKey: '[REDACTED]', token: 'parley-demo-token' },
    };
    expect(lintCassetteFile(await file(clean)).findings).toEqual([]);
  });

  it('a test recorded twice (its sessions in two places) is an error', async () => {
    const twice = cassette();
    twice.sessions.push({ test: 'weather > Paris', customizations: null, turns: [turn('Paris?')] });
    const findings = lintCassetteFile(await file(twice)).findings;
    expect(findings).toEqual([
      expect.objectContaining({ rule: 'test_recorded_twice', path: 'sessions.2.test' }),
    ]);
    expect(findings[0]?.message).toMatch(
      /"weather > Paris" is recorded twice \(its sessions start at session 1 and session 3\)/,
    );
  });

  it("a session without a test in a cassette recorded per: 'test' is an error; --per test asks it of every session", async () => {
    const mixed = cassette();
    mixed.sessions.push({ customizations: null, turns: [turn('Oslo?')] });
    expect(lintCassetteFile(await file(mixed)).findings).toEqual([
      expect.objectContaining({ rule: 'missing_test', path: 'sessions.2' }),
    ]);
    const untested = cassette({ sessions: [{ customizations: null, turns: [turn('Hi')] }] });
    const path = await file(untested);
    expect(lintCassetteFile(path).findings).toEqual([]);
    expect(lintCassetteFile(path, { per: 'test' }).findings.map((f) => f.rule)).toEqual(['missing_test']);
  });

  it('expiry status: fresh, expired past --expires-in, unknown without recordedAt (a warning without --expires-in)', async () => {
    const old = await file(cassette({ recordedAt: '2026-01-01T00:00:00.000Z' }));
    const expired = lintCassetteFile(old, { expiresIn: '30d', now: NOW });
    expect(expired.expiry).toBe('expired');
    expect(expired.findings[0]).toMatchObject({ rule: 'expired', severity: 'error', path: 'recordedAt' });
    const { recordedAt: _dropped, ...ageless } = cassette();
    const unknown = lintCassetteFile(await file(ageless));
    expect(unknown.expiry).toBe('unknown');
    expect(unknown.findings).toEqual([expect.objectContaining({ rule: 'unknown_age', severity: 'warning' })]);
    const { io: streams } = io();
    expect((await runCli(['cassette', 'lint', await file(ageless)], streams)).exitCode).toBe(0);
  });

  it('a 100 MB file is not read: a clear too_large error, no byte read, the heap unmoved', async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'parley-lint-')), 'huge.json');
    const fd = openSync(path, 'w');
    ftruncateSync(fd, 100 * 1024 * 1024); // a sparse file: 100 MB long, nothing written
    closeSync(fd);
    const before = process.memoryUsage();
    const result = lintCassetteFile(path);
    const after = process.memoryUsage();
    expect(result).toMatchObject({ bytes: 100 * 1024 * 1024, bytesRead: 0, valid: false });
    expect(result.findings).toEqual([expect.objectContaining({ rule: 'too_large', severity: 'error' })]);
    expect(result.findings[0]?.message).toMatch(/is 100\.0 MiB, over the lint limit of 64\.0 MiB: not read/);
    expect(after.heapUsed + after.external - before.heapUsed - before.external).toBeLessThan(
      16 * 1024 * 1024,
    );
    const { out, io: streams } = io();
    expect((await runCli(['cassette', 'lint', path], streams)).exitCode).toBe(1);
    expect(out.join('')).toMatch(/error too_large: is 100\.0 MiB/);
    // A limit above the file's size reads it (and finds it is no JSON).
    const small = await file(' '.repeat(2048));
    expect(lintCassetteFile(small, { maxBytes: 1024 }).findings[0]?.rule).toBe('too_large');
  });

  it('exit codes: 2 for a file that cannot be read or a bad flag, naming it', async () => {
    const missing = io();
    expect((await runCli(['cassette', 'lint', '/nonexistent/c.json'], missing.io)).exitCode).toBe(2);
    expect(missing.out.join('')).toMatch(/unreadable: cannot be read: ENOENT/);
    const bad = io();
    expect((await runCli(['cassette', 'lint', '--max-size', 'huge', 'c.json'], bad.io)).exitCode).toBe(2);
    expect(bad.err.join('')).toMatch(/option '--max-size <size>' argument 'huge' is invalid/);
    const none = io();
    expect((await runCli(['cassette', 'lint'], none.io)).exitCode).toBe(2);
    expect(none.err.join('')).toMatch(/missing required argument 'files'/);
    const help = io();
    expect((await runCli(['cassette', 'lint', '--help'], help.io)).exitCode).toBe(0);
    expect(help.out.join('')).toMatch(/Exit codes \(for CI\): 0 nothing wrong/);
    // `cassette` with no lint or list checked nothing: a usage error, not a pass.
    const bare = io();
    expect((await runCli(['cassette'], bare.io)).exitCode).toBe(2);
    expect(bare.err.join('')).toMatch(/Usage: parley-server cassette/);
  });
});

describe('cassette list', () => {
  it('lists the tests, sessions, turns and when it was recorded', async () => {
    const listed = cassette();
    listed.sessions.push({
      test: 'weather > Oslo',
      recordedAt: '2026-11-20T00:00:00.000Z',
      customizations: null,
      turns: [turn('Oslo?')],
    });
    const path = await file(listed, 'weather.json');
    const { out, io: streams } = io();
    expect((await runCli(['cassette', 'list', path], streams)).exitCode).toBe(0);
    const text = out.join('');
    expect(text).toContain(
      'weather.json: 3 sessions, 4 turns, recorded 2026-11-01T00:00:00.000Z from https://parley.example.com (parley 0.1.0)',
    );
    expect(text).toContain('    "weather > Paris": 1 session, 2 turns');
    expect(text).toContain(
      '    3. test "weather > Oslo", 1 turn (added 2026-11-20T00:00:00.000Z) first: "Oslo?"',
    );
    const json = io();
    expect((await runCli(['cassette', 'list', '--json', path], json.io)).exitCode).toBe(0);
    const parsed = JSON.parse(json.out.join('')) as { files: Array<{ turns: number; tests: unknown[] }> };
    expect(parsed.files[0]).toMatchObject({ turns: 4, tests: expect.arrayContaining([]) });
    expect(parsed.files[0]?.tests).toHaveLength(3);
  });

  it('an invalid file exits 1 naming the field, a missing one 2', async () => {
    const bad = io();
    expect(
      (await runCli(['cassette', 'list', await file({ format: 'parley-cassette', version: 2 })], bad.io))
        .exitCode,
    ).toBe(1);
    expect(bad.err.join('')).toMatch(/sessions: Invalid input/);
    const missing = io();
    expect((await runCli(['cassette', 'list', '/nonexistent/c.json'], missing.io)).exitCode).toBe(2);
  });
});
