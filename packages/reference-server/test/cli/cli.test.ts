import { runCli } from '@parley/reference-server/node';
import { describe, expect, it } from 'vitest';

function io() {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { stdout: (t: string) => out.push(t), stderr: (t: string) => err.push(t) } };
}

describe('parley-server CLI', () => {
  it('with --port 0 it listens and prints http://HOST:PORT and the demo token', async () => {
    const { out, io: streams } = io();
    const result = await runCli(['--port', '0'], streams);
    try {
      expect(out).toHaveLength(1);
      const url = /http:\/\/127\.0\.0\.1:(\d+)/.exec(out[0] ?? '')?.[0];
      expect(url).toBeDefined();
      expect(out[0]).toContain('parley-demo-token');
      const res = await fetch(`${url}/v1/sessions`, {
        headers: { authorization: 'Bearer parley-demo-token' },
      });
      expect(res.status).toBe(200);
    } finally {
      await result.running?.close();
    }
  });

  it('--user NAME:TOKEN (repeatable) replaces the demo user and --heartbeat-timeout-ms is applied', async () => {
    const { out, io: streams } = io();
    const result = await runCli(
      [
        '--port',
        '0',
        '--host',
        '127.0.0.1',
        '--user',
        'alice:a-token',
        '--user',
        'bob:b-token',
        '--heartbeat-timeout-ms',
        '500',
      ],
      streams,
    );
    try {
      const url = result.running?.url ?? '';
      expect(out.join('')).toContain(url);
      expect(out.join('')).not.toContain('parley-demo-token');
      expect(result.running?.server.heartbeatTimeoutMs).toBe(500);
      expect(
        (await fetch(`${url}/v1/sessions`, { headers: { authorization: 'Bearer b-token' } })).status,
      ).toBe(200);
      expect(
        (await fetch(`${url}/v1/sessions`, { headers: { authorization: 'Bearer parley-demo-token' } }))
          .status,
      ).toBe(401);
    } finally {
      await result.running?.close();
    }
  });

  it.each([
    [['--port', 'abc']],
    [['--port', '70000']],
    [['--user', 'no-colon']],
    [['--heartbeat-timeout-ms', '0']],
    [['--bogus']],
  ])('invalid flags %j print a clear message and give exit code 2', async (argv) => {
    const { err, io: streams } = io();
    const result = await runCli(argv, streams);
    expect(result.exitCode).toBe(2);
    expect(err.join('')).toMatch(/error/i);
  });

  it('--help prints every flag and exits 0', async () => {
    const { out, io: streams } = io();
    const result = await runCli(['--help'], streams);
    expect(result.exitCode).toBe(0);
    for (const flag of ['--port', '--host', '--user', '--heartbeat-timeout-ms', '--help'])
      expect(out.join('')).toContain(flag);
  });

  it('the main --help lists the subcommands run, drift and cassette, and the /healthz and /readyz checks', async () => {
    const { out, io: streams } = io();
    await runCli(['--help'], streams);
    const help = out.join('');
    expect(help).toMatch(/^ {2}run \[server options\] -- <command\.\.\.> /m);
    expect(help).toMatch(/^ {2}drift --cassette FILE --upstream URL /m);
    expect(help).toMatch(/^ {2}cassette lint\|list FILE\.\.\. /m);
    expect(help).toContain('GET /healthz');
    expect(help).toContain('GET /readyz');
  });

  it.each([
    ['rnu', 'run'],
    ['runn', 'run'],
    ['drfit', 'drift'],
    ['casette', 'cassette'],
    ['Cassete', 'cassette'],
  ])('a mistyped subcommand (%s) is a usage error that suggests the nearest (%s)', async (typo, nearest) => {
    const { out, err, io: streams } = io();
    const result = await runCli(['--', typo, '--port', '0'], streams);
    expect(result.exitCode).toBe(2);
    expect(out).toEqual([]);
    expect(err.join('')).toContain(`error: unknown command '${typo}' (Did you mean ${nearest}?)`);
  });

  it('a word that is near no subcommand is a usage error listing them', async () => {
    const { err, io: streams } = io();
    expect((await runCli(['serve'], streams)).exitCode).toBe(2);
    expect(err.join('')).toBe(
      "error: unknown command 'serve'\nCommands: run, drift, cassette; server options are flags (parley-server --help)\n",
    );
  });
});

describe('parley-server CLI extensions flags', () => {
  async function tempFile(name: string, text: string): Promise<string> {
    const { mkdtemp, writeFile } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const dir = await mkdtemp(join(tmpdir(), 'parley-cli-'));
    const file = join(dir, name);
    await writeFile(file, text);
    return file;
  }

  it('--config FILE loads agents and quotas; --documents NAME=FILE loads an index', async () => {
    const docs = await tempFile(
      'faq.jsonl',
      `${JSON.stringify({ id: 'refunds', text: 'Refunds take five days.', tags: { lang: ['en'] } })}\n`,
    );
    const config = await tempFile(
      'config.json',
      JSON.stringify({
        agents: { faq: { systemPrompt: 'Answer from the FAQ.', rag: { indexes: ['faq'] } } },
        indexes: { faq: { file: docs } },
        quotas: [{ product: 'demo', messagesPerMinute: 1 }],
      }),
    );
    const { out, io: streams } = io();
    const result = await runCli(['--port', '0', '--config', config, '--documents', `more=${docs}`], streams);
    try {
      expect(out.join('')).toContain('index more');
      const host = result.running?.server.extensions;
      expect(host?.catalogue.agents.faq).toBeDefined();
      expect(host?.retriever.names).toEqual(expect.arrayContaining(['faq', 'more']));
      const url = result.running?.url ?? '';
      const headers = { authorization: 'Bearer parley-demo-token' };
      const created = await fetch(`${url}/v1/sessions`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ customizations: { agentId: 'faq', product: 'demo' } }),
      });
      expect(created.status).toBe(201);
      const { sessionId } = (await created.json()) as { sessionId: string };
      const send = () =>
        fetch(`${url}/v1/messages/${sessionId}`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ content: '/search refunds' }),
        });
      const first = await send();
      expect(first.status).toBe(200);
      expect(JSON.stringify(await first.json())).toContain('refunds');
      const second = await send();
      expect(second.status).toBe(429);
      expect(second.headers.get('retry-after')).not.toBeNull();
    } finally {
      await result.running?.close();
    }
  });

  it('a bad --config or --documents file is a clear message and exit code 2', async () => {
    const bad = await tempFile('bad.json', JSON.stringify({ agents: { x: { systemPrompt: 5 } } }));
    const first = io();
    expect((await runCli(['--port', '0', '--config', bad], first.io)).exitCode).toBe(2);
    expect(first.err.join('')).toContain('--config');
    const second = io();
    expect((await runCli(['--port', '0', '--documents', 'nope'], second.io)).exitCode).toBe(2);
    expect(second.err.join('')).toContain('NAME=FILE');
  });
});
