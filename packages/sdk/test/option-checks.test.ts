import { createReferenceServer } from '@parley/reference-server';
import { defineTool, jsonSchema, Parley, runToolLoop, type StreamRequestOptions } from '@parley/sdk';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  editDistance,
  OPTION_NAMES,
  unknownOptionWarning,
  warnUnknownOptions,
} from '../src/internal/unknown-options.js';

// No request leaves in most of these tests: a mistake is named before anything is sent.
const offline = async (): Promise<Response> => {
  throw new Error('no request is sent in these tests');
};
const client = new Parley({ baseUrl: 'http://parley.test', token: 't', fetch: offline, maxRetries: 0 });
const tool = defineTool({
  name: 'get_weather',
  description: 'Weather',
  input: jsonSchema<{ city: string }>({ type: 'object', properties: { city: { type: 'string' } } }),
  run: () => ({}),
});

/** console.warn, watched: the lines the SDK wrote. */
function watchWarnings(): string[] {
  const lines: string[] = [];
  vi.spyOn(console, 'warn').mockImplementation((line: unknown) => {
    lines.push(String(line));
  });
  return lines;
}

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

/** What the call threw or rejected with, if anything. */
async function failure(run: () => unknown): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('no valid TypeScript program throws or warns', () => {
  it("a stream's options object given to send is taken as it is (TypeScript passes a wider object)", async () => {
    const warnings = watchWarnings();
    const server = createReferenceServer();
    const sdk = new Parley({
      baseUrl: 'http://parley.test',
      token: 'parley-demo-token',
      fetch: server.fetch,
    });
    const { sessionId } = await sdk.sessions.create();
    const streamOptions: StreamRequestOptions = { idleTimeoutMs: 5_000, firstEventTimeoutMs: 5_000 };
    const reply = await sdk.messages.send(sessionId, { content: 'hi' }, streamOptions);
    expect(reply.stopReason).toBe('end_turn');
    expect(warnings).toEqual([]);
  });

  it('an object with fields of its own, far from every option, passes without a word', async () => {
    const warnings = watchWarnings();
    const config = { baseUrl: 'http://parley.test', token: 't', fetch: offline, region: 'eu', retry: 3 };
    expect(() => new Parley(config)).not.toThrow();
    const wider = { ...config, dangerouslyAllowBrowser: true };
    expect(() => new Parley(wider)).not.toThrow();
    expect(warnings).toEqual([]);
  });

  it('a logger that is a function carrying the four methods is a logger', async () => {
    const lines: string[] = [];
    const logger = Object.assign((line: string) => lines.push(line), {
      debug: (line: string) => lines.push(line),
      info: (line: string) => lines.push(line),
      warn: (line: string) => lines.push(line),
      error: (line: string) => lines.push(line),
    });
    const fetch = async () => Response.json({ sessions: [] });
    const sdk = new Parley({ baseUrl: 'http://parley.test', token: 't', fetch, logger, logLevel: 'debug' });
    await sdk.sessions.list();
    expect(lines.join('\n')).toMatch(/GET http:\/\/parley\.test\/v1\/sessions/);
  });
});

describe('a plain-JavaScript typo near an option is named, as a warning', () => {
  it.each([
    ['new Parley()', () => new Parley({ baseUrl: 'http://x.test', tokn: 't' } as never), 'tokn', 'token'],
    [
      'new Parley()',
      () => new Parley({ baseUrl: 'http://x.test', token: 't', timeout: 5 } as never),
      'timeout',
      'timeoutMs',
    ],
    [
      'runToolLoop()',
      () => client.runToolLoop({ sessionId: 's', tools: [tool], maxStep: 3 } as never),
      'maxStep',
      'maxSteps',
    ],
    [
      'messages.send()',
      () => client.messages.send('s', {}, { maxretries: 1 } as never),
      'maxretries',
      'maxRetries',
    ],
    [
      'messages.send() recover',
      () => client.messages.send('s', {}, { recover: { maxAttempt: 2 } } as never),
      'maxAttempt',
      'maxAttempts',
    ],
    ['sessions.list()', () => client.sessions.list({ signl: undefined } as never), 'signl', 'signal'],
  ])('%s: the unknown key and the option it is near', async (where, call, key, meant) => {
    const warnings = watchWarnings();
    await failure(call);
    expect(warnings).toEqual([`[parley] Unknown option "${key}" for ${where}; did you mean "${meant}"?`]);
  });

  it('a hint only when near: at most 1 edit for names up to 4 letters, 2 beyond, case ignored', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-zA-Z][a-zA-Z0-9]{0,24}$/), (key) => {
        const warning = unknownOptionWarning({ [key]: 1 }, 'call()');
        const names: readonly string[] = OPTION_NAMES;
        const near = names.filter((name) => {
          const distance = editDistance(key.toLowerCase(), name.toLowerCase());
          return distance <= (name.length <= 4 ? 1 : 2);
        });
        if (names.includes(key) || near.length === 0) {
          expect(warning).toBeUndefined();
        } else {
          expect(near).toContain(/did you mean "(\w+)"/.exec(warning ?? '')?.[1]);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('the examples the old hint got wrong: retry is not fetch, dangerouslyAllowBrowser is not baseUrl', () => {
    expect(unknownOptionWarning({ retry: 1 }, 'new Parley()')).toBeUndefined();
    expect(unknownOptionWarning({ dangerouslyAllowBrowser: true }, 'new Parley()')).toBeUndefined();
  });

  it('a key near an option the object already has is another field, not a typo', () => {
    expect(unknownOptionWarning({ token: 't', tokens: 2 }, 'new Parley()')).toBeUndefined();
  });

  it('each typo is written once per call, however often the call repeats it', async () => {
    const warnings = watchWarnings();
    for (let i = 0; i < 3; i++) await failure(() => client.sessions.list({ timeoutMS: 5 } as never));
    expect(warnings).toHaveLength(1);
  });

  it('a production build writes nothing (NODE_ENV=production)', async () => {
    vi.stubEnv('NODE_ENV', 'production');
    const warnings = watchWarnings();
    warnUnknownOptions({ signl: 1 }, 'production()');
    expect(warnings).toEqual([]);
  });
});

describe('a value of the wrong type is an error where the value is used', () => {
  it('a timeoutMs given as a string says so: got "5000" (a string), not 5000', () => {
    expect(() => new Parley({ baseUrl: 'http://x.test', timeoutMs: '5000' as never })).toThrow(
      new TypeError(
        'new Parley(): timeoutMs must be a number of ms from 0 to 2147483647 (the longest timer), got "5000" (a string)',
      ),
    );
  });

  it('a logger without the four methods is refused', () => {
    expect(() => new Parley({ baseUrl: 'http://x.test', logger: 'console' as never })).toThrow(
      new TypeError(
        'new Parley(): logger must be an object with the methods debug, info, warn and error, got "console" (a string)',
      ),
    );
  });

  it('a tool whose run is not a function is an invalid definition', () => {
    expect(() => defineTool({ ...tool, run: 'fetch' as never })).toThrow(/✖ run must be a function/);
  });

  it.each([
    ['messages.send()', (id: unknown) => client.messages.send(id as string, {}), 'sessionId'],
    ['messages.stream()', (id: unknown) => client.messages.stream(id as string, {}), 'sessionId'],
    ['messages.export()', (id: unknown) => client.messages.export(id as string), 'sessionId'],
    ['messages.rewind()', (id: unknown) => client.messages.rewind(id as string, 0), 'sessionId'],
    ['sessions.delete()', (id: unknown) => client.sessions.delete(id as string), 'sessionId'],
    ['tools.heartbeat()', (id: unknown) => client.tools.heartbeat('s', id as string), 'requestId'],
    ['tools.respond()', (id: unknown) => client.tools.respond(id as string, 'r', {}), 'sessionId'],
    ['tools.fail()', (id: unknown) => client.tools.fail('s', id as string, 'x'), 'requestId'],
    ['tools.get()', (id: unknown) => client.tools.get(id as string, 'r'), 'sessionId'],
    [
      'runToolLoop()',
      (id: unknown) => runToolLoop(client, { sessionId: id as string, tools: [tool] }),
      'sessionId',
    ],
  ])(
    'an id parameter of %s given an object names the method and the parameter',
    async (where, call, name) => {
      for (const [id, got] of [
        [{ sessionId: 's' }, 'an object'],
        [42, '42 (a number)'],
        [undefined, 'undefined'],
      ] as const) {
        expect(await failure(() => call(id))).toEqual(
          new TypeError(`${where}: ${name} must be a string, got ${got}`),
        );
      }
      expect(await failure(() => call(''))).toEqual(
        new TypeError(`${where}: ${name} must be a non-empty string, got "" (a string)`),
      );
    },
  );
});
