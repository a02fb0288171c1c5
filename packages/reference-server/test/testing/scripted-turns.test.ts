import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StreamBody } from '@parley/protocol';
import { scriptedModel, turn } from '@parley/reference-server';
import { runCli } from '@parley/reference-server/node';
import { describe, expect, it } from 'vitest';
import { caller, expectError, harness } from '../helpers/api.js';

describe('scripted turns set at run time', () => {
  it('server.script(rules) answers the following requests from the rules', async () => {
    const h = harness();
    h.server.script({ rules: [{ match: { lastUserText: /weather/i }, reply: turn.text('Sunny.') }] });
    const sessionId = await h.createSession();
    const reply = await h.send(sessionId, 'What is the weather?');
    expect(reply.messages.at(-1)?.content).toEqual([{ type: 'text', text: 'Sunny.' }]);
  });

  it('server.setModel swaps the model between two requests of the same session', async () => {
    const h = harness();
    const sessionId = await h.createSession();
    h.server.setModel(scriptedModel([turn.text('First.')]));
    expect((await h.send(sessionId, 'a')).messages.at(-1)?.content).toEqual([
      { type: 'text', text: 'First.' },
    ]);
    h.server.script([turn.text('Second.')]);
    expect((await h.send(sessionId, 'b')).messages.at(-1)?.content).toEqual([
      { type: 'text', text: 'Second.' },
    ]);
  });

  it('a strict miss is 501 no_script_match on the buffered endpoint, naming the rules tried', async () => {
    const h = harness();
    h.server.script({
      rules: [{ name: 'weather', match: { lastUserText: 'weather' }, reply: turn.text('x') }],
    });
    const sessionId = await h.createSession();
    const error = expectError(
      await h.call('POST', `/v1/messages/${sessionId}`, { content: 'hello' }),
      501,
      'no_script_match',
    );
    expect(error.message).toContain('#1 "weather"');
  });

  it('a strict miss in a stream is an exception event with code no_script_match', async () => {
    const h = harness();
    h.server.script({ rules: [] });
    const sessionId = await h.createSession();
    const res = await h.call<StreamBody>('POST', `/v1/messages/${sessionId}/stream`, { content: 'hello' });
    expect(res.status).toBe(200);
    const last = res.body.events.at(-1) as Record<string, { code?: string; originalStatusCode?: number }>;
    expect(Object.values(last)[0]).toMatchObject({ code: 'no_script_match', originalStatusCode: 501 });
  });

  it('reset() puts back the model the server was created with', async () => {
    const h = harness();
    h.server.script([turn.text('Scripted.')]);
    h.server.reset();
    const sessionId = await h.createSession();
    const reply = await h.send(sessionId, 'Hello there');
    expect(reply.messages.at(-1)?.content).toEqual([{ type: 'text', text: 'You said: Hello there' }]);
  });

  it('PUT /_parley/script loads a script file and DELETE /_parley/script restores the model', async () => {
    const h = harness({ control: true });
    const put = await h.call('PUT', '/_parley/script', {
      rules: [{ match: { lastUserText: { regex: '^hi', flags: 'i' } }, reply: { text: 'Hello!' } }],
    });
    expect(put.status, put.text).toBe(200);
    expect(put.body).toEqual({ rules: 1 });
    const sessionId = await h.createSession();
    expect((await h.send(sessionId, 'Hi')).messages.at(-1)?.content).toEqual([
      { type: 'text', text: 'Hello!' },
    ]);
    expect((await h.call('DELETE', '/_parley/script')).status).toBe(204);
    expect((await h.send(sessionId, 'Hi again')).messages.at(-1)?.content).toEqual([
      { type: 'text', text: 'You said: Hi again' },
    ]);
  });

  it('PUT /_parley/script with an invalid script is 400 naming the bad field', async () => {
    const h = harness({ control: true });
    const res = await h.call('PUT', '/_parley/script', {
      rules: [{ match: { lastUserText: 3 }, reply: {} }],
    });
    expect(expectError(res, 400, 'invalid_request').message).toContain('rules[0].match.lastUserText');
  });
});

describe('parley-server --script', () => {
  it('answers from the JSON script file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'parley-script-'));
    const file = join(dir, 'script.json');
    await writeFile(file, JSON.stringify({ turns: [{ text: 'From the file.' }] }));
    const out: string[] = [];
    const result = await runCli(['--port', '0', '--script', file], {
      stdout: (t) => out.push(t),
      stderr: (t) => out.push(t),
    });
    if (result.running === undefined) throw new Error(`exit ${result.exitCode}: ${out.join('')}`);
    try {
      expect(out.join('')).toContain(`  script:         ${file}\n`);
      const call = caller(fetch, result.running.url);
      const { body } = await call('POST', '/v1/sessions');
      const reply = await call('POST', `/v1/messages/${body.sessionId}`, { content: 'hi' });
      expect(reply.body.messages.at(-1).content).toEqual([{ type: 'text', text: 'From the file.' }]);
    } finally {
      await result.running.close();
    }
  });

  it('an invalid script file prints why and exits with code 2', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'parley-script-'));
    const file = join(dir, 'bad.json');
    await writeFile(file, JSON.stringify({ rules: [], turns: [] }));
    const err: string[] = [];
    const result = await runCli(['--port', '0', '--script', file], {
      stdout: () => {},
      stderr: (t) => err.push(t),
    });
    expect(result.exitCode).toBe(2);
    expect(err.join('')).toMatch(/--script .*bad\.json: Invalid script/);
  });

  it('a missing script file exits with code 2', async () => {
    const err: string[] = [];
    const result = await runCli(['--script', '/nonexistent/parley.json'], {
      stdout: () => {},
      stderr: (t) => err.push(t),
    });
    expect(result.exitCode).toBe(2);
    expect(err.join('')).toContain('/nonexistent/parley.json');
  });
});

describe('parley-server --control', () => {
  it('serves the control routes, also after a leading "--" (pnpm start -- --control)', async () => {
    const out: string[] = [];
    const result = await runCli(['--', '--port', '0', '--control'], {
      stdout: (t) => out.push(t),
      stderr: (t) => out.push(t),
    });
    if (result.running === undefined) throw new Error(`exit ${result.exitCode}: ${out.join('')}`);
    try {
      expect(out.join('')).toContain(`control routes: ${result.running.url}/_parley/`);
      const token = result.running.server.controlToken ?? '';
      expect(out.join('')).toContain(`${result.running.url}/_parley/ui/#token=${token}`);
      const health = await fetch(`${result.running.url}/_parley/health`, {
        headers: { 'x-parley-control-token': token },
      });
      expect(health.status).toBe(200);
    } finally {
      await result.running.close();
    }
  });
});
