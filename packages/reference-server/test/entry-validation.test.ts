import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createReferenceServer, InvalidScriptError, turn } from '@parley/reference-server';
import { driftReport, lintCassetteFile } from '@parley/reference-server/node';
import { afterEach, describe, expect, it, vi } from 'vitest';

afterEach(() => {
  vi.restoreAllMocks();
});

/** What `PUT /_parley/script` answers for `script`: its status and error message. */
async function putScript(script: unknown): Promise<{ status: number; message?: string }> {
  const server = createReferenceServer({ control: true, controlToken: 'pct_0123456789abcdef0123' });
  const res = await server.fetch(
    new Request('http://parley.test/_parley/script', {
      method: 'PUT',
      headers: { 'x-parley-control-token': 'pct_0123456789abcdef0123', 'content-type': 'application/json' },
      body: JSON.stringify(script),
    }),
  );
  const body = (await res.json()) as { error?: { message: string } };
  return { status: res.status, ...(body.error ? { message: body.error.message } : {}) };
}

/** What the call threw. */
async function thrown(run: () => unknown): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error('the call did not throw');
}

describe('a script is checked wherever it enters, as PUT /_parley/script checks it', () => {
  it.each([
    ['a turn with an unknown field', [{ txt: 'hi' }]],
    ['a text that is not a string', [{ text: 42 }]],
    ['a tool use without a name', [{ toolUses: [{ input: {} }] }]],
    ['a rule whose matcher is a number', { rules: [{ match: { lastUserText: 3 }, reply: {} }] }],
  ])(
    '%s: server.script() throws the InvalidScriptError whose message is the route 400',
    async (_, script) => {
      const server = createReferenceServer();
      const error = await thrown(() => server.script((Array.isArray(script) ? script : script) as never));
      expect(error).toBeInstanceOf(InvalidScriptError);
      const route = await putScript(Array.isArray(script) ? { turns: script } : script);
      expect(route.status).toBe(400);
      // The route names paths from the file's root (`turns[0].txt`), the code from the script's.
      const codeMessage = (error as Error).message;
      expect(route.message?.replace(/turns(?=\[)/g, '')).toBe(codeMessage);
    },
  );

  it('turn.text(42) is an InvalidScriptError at the call, not "text.match is not a function" later', () => {
    expect(() => turn.text(42 as never)).toThrow(InvalidScriptError);
    expect(() => turn.text(42 as never)).toThrow(/text: .*expected string/);
    expect(() => turn.toolUse('', {})).toThrow(/toolUses\[0\]\.name/);
  });

  it('server.script({ turns }) (the script file format) is taken as the file is', async () => {
    const server = createReferenceServer();
    server.script({ turns: [{ text: 'From the file format.' }] } as never);
    const res = await server.fetch(
      new Request('http://parley.test/v1/sessions', {
        method: 'POST',
        headers: { authorization: 'Bearer parley-demo-token' },
      }),
    );
    const { sessionId } = (await res.json()) as { sessionId: string };
    const reply = await server.fetch(
      new Request(`http://parley.test/v1/messages/${sessionId}`, {
        method: 'POST',
        headers: { authorization: 'Bearer parley-demo-token', 'content-type': 'application/json' },
        body: JSON.stringify({ content: 'hi' }),
      }),
    );
    const body = (await reply.json()) as { messages: Array<{ content: unknown }> };
    expect(body.messages.at(-1)?.content).toEqual([{ type: 'text', text: 'From the file format.' }]);
  });

  it('a rules script in code keeps what only code holds (a RegExp, a when function)', () => {
    const server = createReferenceServer();
    expect(() =>
      server.script({
        rules: [{ match: { lastUserText: /^hi/i, when: () => true }, reply: { text: 'Hello!' } }],
      }),
    ).not.toThrow();
    expect(() => server.script({ rules: [{ match: { when: 'yes' }, reply: {} }] } as never)).toThrow(
      /rules\[0\]\.match\.when: must be a function/,
    );
  });
});

describe('the cassette, drift and lint helpers check their options as the rest do', () => {
  it('replay: { file } names the option meant and says a cassette is required', () => {
    const warnings: string[] = [];
    vi.spyOn(console, 'warn').mockImplementation((line: unknown) => {
      warnings.push(String(line));
    });
    expect(() => createReferenceServer({ replay: { file: 'x.json' } as never })).toThrow(
      /createReferenceServer\(\{ replay \}\): cassette is required \(a path or a cassette\)/,
    );
    expect(warnings).toEqual([
      '[parley] Unknown option "file" for createReferenceServer({ replay }); did you mean "cassette"?',
    ]);
  });

  it('driftReport({ casette }) names cassette', async () => {
    const warnings: string[] = [];
    vi.spyOn(console, 'warn').mockImplementation((line: unknown) => {
      warnings.push(String(line));
    });
    const error = await thrown(() =>
      driftReport({ casette: 'x.json', upstream: { url: 'http://localhost:1' } } as never),
    );
    expect(error).toEqual(
      new TypeError('driftReport(): cassette is required: a cassette file or a loaded cassette'),
    );
    expect(warnings).toEqual([
      '[parley] Unknown option "casette" for driftReport(); did you mean "cassette"?',
    ]);
  });

  it('driftReport({ upstream: "http://..." }) blames upstream, not key "0"', async () => {
    const error = await thrown(() =>
      driftReport({ cassette: 'x.json', upstream: 'http://localhost:4010' } as never),
    );
    expect(error).toEqual(
      new TypeError(
        'driftReport(): upstream must be an object such as { url: "http://localhost:4010" }, got "http://localhost:4010" (a string)',
      ),
    );
  });

  it('lintCassetteFile(f, { expiresin }) names expiresIn; a wrong type throws', () => {
    const dir = mkdtempSync(join(tmpdir(), 'parley-lint-'));
    try {
      const file = join(dir, 'c.json');
      writeFileSync(file, '{}');
      const warnings: string[] = [];
      vi.spyOn(console, 'warn').mockImplementation((line: unknown) => {
        warnings.push(String(line));
      });
      lintCassetteFile(file, { expiresin: '30d' } as never);
      expect(warnings).toEqual([
        '[parley] Unknown option "expiresin" for lintCassetteFile(); did you mean "expiresIn"?',
      ]);
      expect(() => lintCassetteFile(file, { maxBytes: '1mb' } as never)).toThrow(
        new TypeError('lintCassetteFile(): maxBytes must be a number, got "1mb" (a string)'),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
