import { EventEmitter } from 'node:events';
import * as fs from 'node:fs';
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ProxyReportSnapshot } from '@parley/reference-server';
import { runCli, StopFailure, stopOnSignals } from '@parley/reference-server/node';
import { describe, expect, it, vi } from 'vitest';
import { answer, send, startScriptedUpstream, startUpstream } from './helpers.js';

function streams() {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { stdout: (t: string) => out.push(t), stderr: (t: string) => err.push(t) } };
}

async function start(argv: string[]) {
  const s = streams();
  const result = await runCli(['--port', '0', ...argv], s.io, { env: {} });
  return { ...s, result };
}

/** An upstream whose session create lacks `sessionId`: one violation per create. */
async function brokenUpstream() {
  return startScriptedUpstream((_, res) => answer(res, 201, '{"id":"sess_1"}'));
}

const folder = () => mkdtempSync(join(tmpdir(), 'parley-report-'));

const noSpace = () => Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });

/** File-system faults a report's write may meet, each on the files of `dir` only. */
const faults = {
  'the disk fills up halfway through the text': (dir: string) => {
    const open = fs.promises.open;
    return vi.spyOn(fs.promises, 'open').mockImplementation(async (path, ...rest) => {
      const handle = await open(path, ...rest);
      if (!String(path).startsWith(dir)) return handle;
      return Object.assign(Object.create(handle) as fs.promises.FileHandle, {
        writeFile: async (text: string) => {
          await handle.writeFile(text.slice(0, text.length / 2));
          throw noSpace();
        },
        sync: () => handle.sync(),
        close: () => handle.close(),
      });
    });
  },
  'the rename fails': (dir: string) => {
    const rename = fs.promises.rename;
    return vi.spyOn(fs.promises, 'rename').mockImplementation(async (from, to) => {
      if (String(to).startsWith(dir))
        throw Object.assign(new Error('EIO: i/o error, rename'), { code: 'EIO' });
      return rename(from, to);
    });
  },
};

describe('--fail-on-violation', () => {
  it('a violation makes the stop fail with exit code 1, naming the count and each kind', async () => {
    const upstream = await brokenUpstream();
    const { out, err, result } = await start(['--upstream', upstream.url, '--fail-on-violation']);
    expect(out.join('')).toContain('exit code 1 at stop on a protocol violation');
    await send(`${result.running?.url}/v1/sessions`, 'POST', {});
    await send(`${result.running?.url}/v1/sessions`, 'POST', {});
    const stopped = result.running?.close();
    await expect(stopped).rejects.toBeInstanceOf(StopFailure);
    const failure = (await stopped?.catch((error: unknown) => error)) as StopFailure;
    expect(failure.exitCode).toBe(1);
    expect(failure.message).toContain(`${upstream.url} broke the protocol: 2 violations in 2 of 2 requests`);
    expect(failure.message).toMatch(
      /- POST \/v1\/sessions: response sessionId: expected string, got nothing \(2x, last in req_[0-9a-f]{32}\)/,
    );
    // The summary line is printed before, as without the flag.
    expect(err.join('')).toContain('2 protocol violations in 2 requests');
  });

  it('stopped by a signal, the process exits 1 and stderr says why', async () => {
    const upstream = await brokenUpstream();
    const { result } = await start(['--upstream', upstream.url, '--fail-on-violation']);
    await send(`${result.running?.url}/v1/sessions`, 'POST', {});
    const signals = new EventEmitter();
    const s = streams();
    const exited = new Promise<number>((resolve) => {
      stopOnSignals(Promise.resolve(result.running), s.io, resolve, signals);
    });
    signals.emit('SIGTERM');
    expect(await exited).toBe(1);
    expect(s.out).toEqual(['Parley reference server stopped (SIGTERM)\n']);
    expect(s.err.join('')).toMatch(/^parley-server: .* broke the protocol: 1 violation in 1 of 1 request\n/);
    expect(s.err.join('')).toContain('(--fail-on-violation: exit code 1)');
  });

  it('no violation: the stop succeeds', async () => {
    const upstream = await startUpstream();
    const { result } = await start(['--upstream', upstream.url, '--fail-on-violation']);
    expect((await send(`${result.running?.url}/v1/sessions`, 'POST', {})).status).toBe(201);
    await expect(result.running?.close()).resolves.toBeUndefined();
  });

  it('without --upstream it is refused at start', async () => {
    const { err, result } = await start(['--fail-on-violation']);
    expect(result.exitCode).toBe(2);
    expect(err.join('')).toContain('--fail-on-violation needs --upstream <url>');
  });
});

describe('--report FILE', () => {
  it('writes the JSON report at stop', async () => {
    const upstream = await brokenUpstream();
    const file = join(folder(), 'proxy-report.json');
    const { out, err, result } = await start(['--upstream', upstream.url, '--report', file]);
    expect(out.join('')).toContain(`report at stop: ${file} (JSON)`);
    await send(`${result.running?.url}/v1/sessions`, 'POST', {});
    await result.running?.close();
    const report = JSON.parse(readFileSync(file, 'utf8')) as ProxyReportSnapshot;
    expect(report).toMatchObject({ upstream: upstream.url, requests: 1, violations: 1 });
    expect(report.rules[0]).toMatchObject({ operation: 'POST /v1/sessions', path: 'sessionId', count: 1 });
    expect(err.join('')).toContain(`proxy report written to ${file}`);
  });

  it('a .xml file gets JUnit XML: one failed testcase per violated rule', async () => {
    const upstream = await startScriptedUpstream((request, res) =>
      request.method === 'POST'
        ? answer(res, 201, '{"id":"sess_1"}')
        : answer(res, 200, '{"sessions":[{"sessionId":42}]}'),
    );
    const file = join(folder(), 'proxy.xml');
    const { result } = await start(['--upstream', upstream.url, '--report', file, '--fail-on-violation']);
    await send(`${result.running?.url}/v1/sessions`, 'POST', {});
    await send(`${result.running?.url}/v1/sessions`, 'GET');
    await expect(result.running?.close()).rejects.toThrow(/3 violations in 2 of 2 requests/);
    const xml = readFileSync(file, 'utf8');
    expect(xml).toMatch(
      /^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites name="parley checking proxy"/,
    );
    const testcases = [...xml.matchAll(/<testcase classname="([^"]*)" name="([^"]*)">\s*<failure /g)];
    expect(testcases.map((m) => `${m[1]} | ${m[2]}`).sort()).toEqual([
      'GET /v1/sessions | response sessions[*].createdAt: expected number',
      'GET /v1/sessions | response sessions[*].sessionId: expected string',
      'POST /v1/sessions | response sessionId: expected string',
    ]);
    expect(xml).toContain('tests="3" failures="3"');
    expect(xml).toContain('<property name="violations" value="3"/>');
  });

  it.each([
    [
      'a missing folder',
      (dir: string) => join(dir, 'no-such-folder', 'report.xml'),
      /folder .* does not exist/,
    ],
    ['a folder', (dir: string) => dir, /is a directory/],
  ])('a path that cannot be written (%s) is refused at start', async (_, path, message) => {
    const upstream = await startUpstream();
    const { err, result } = await start(['--upstream', upstream.url, '--report', path(folder())]);
    await result.running?.close();
    expect(result.exitCode).toBe(2);
    expect(err.join('')).toMatch(/parley-server: --report /);
    expect(err.join('')).toMatch(message);
  });

  it('without --upstream it is refused at start', async () => {
    const { err, result } = await start(['--report', 'report.xml']);
    expect(result.exitCode).toBe(2);
    expect(err.join('')).toContain('--report report.xml needs --upstream <url>');
  });

  it('a report replaces the previous one whole, through a temporary file beside it that takes its name', async () => {
    const upstream = await startUpstream();
    const dir = folder();
    const file = join(dir, 'report.json');
    writeFileSync(file, 'old');
    const before = statSync(file).ino;
    const { result } = await start(['--upstream', upstream.url, '--report', file]);
    await result.running?.close();
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ requests: 0, violations: 0 });
    // A new file took the name (written in place, the old file would keep its inode), and no
    // temporary file is left beside it.
    expect(statSync(file).ino).not.toBe(before);
    expect(readdirSync(dir)).toEqual(['report.json']);
  });

  it.each(Object.keys(faults) as (keyof typeof faults)[])(
    'a report whose write fails at stop (%s) keeps the previous report, leaves no temporary file, and the stop fails naming the file',
    async (fault) => {
      const upstream = await startUpstream();
      const dir = folder();
      const file = join(dir, 'report.xml');
      writeFileSync(file, 'the previous report');
      const { result } = await start(['--upstream', upstream.url, '--report', file]);
      const spy = faults[fault](dir);
      try {
        const stopped = result.running?.close();
        await expect(stopped).rejects.toBeInstanceOf(StopFailure);
        const failure = (await stopped?.catch((error: unknown) => error)) as StopFailure;
        expect(failure.exitCode).toBe(1);
        expect(failure.message).toContain(`parley-server: --report ${file} could not be written (`);
        expect(failure.message).toMatch(/\((ENOSPC: no space left|EIO: i\/o error)/);
        expect(failure.message).toContain('the previous report is kept');
      } finally {
        spy.mockRestore();
      }
      expect(readFileSync(file, 'utf8')).toBe('the previous report');
      expect(readdirSync(dir)).toEqual(['report.xml']);
    },
  );
});
