import { Parley } from '@parley/sdk';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMockFetch } from './helpers/mock-fetch.js';

const BASE = 'http://parley.test';
const TOKEN = 'secret-token-4f9a';

function recorder() {
  const lines: Array<[string, string]> = [];
  const logger = {
    debug: (line: string) => lines.push(['debug', line]),
    info: (line: string) => lines.push(['info', line]),
    warn: (line: string) => lines.push(['warn', line]),
    error: (line: string) => lines.push(['error', line]),
  };
  return { lines, logger };
}

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('logLevel and PARLEY_LOG', () => {
  it('debug logs each request with its headers and never the bearer token (nor other credentials)', async () => {
    const { lines, logger } = recorder();
    const mock = createMockFetch();
    const client = new Parley({
      baseUrl: BASE,
      getToken: () => TOKEN,
      fetch: mock.fetch,
      logger,
      logLevel: 'debug',
      headers: { 'x-api-key': 'key-77', 'x-app': 'demo' },
    });
    mock.json(201, { sessionId: 's1' });
    mock.json(500, { error: { code: 'internal_error', message: 'boom' } });
    mock.json(200, { sessions: [] });
    await client.sessions.create();
    await client.sessions.list();
    expect(mock.requests[0]?.headers.get('authorization')).toBe(`Bearer ${TOKEN}`);
    const text = lines.map(([, line]) => line).join('\n');
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain('key-77');
    expect(text).toContain('authorization: Bearer ***');
    expect(text).toContain('x-api-key: ***');
    expect(text).toContain('x-app: demo');
    // create: request, response; list: request, 500, retry note, attempt line, request, 200.
    expect(lines.map(([level]) => level)).toEqual(Array(8).fill('debug'));
    expect(text).toContain(`GET ${BASE}/v1/sessions (retry 1)`);
  });

  it('a level above debug builds no request lines', async () => {
    const { lines, logger } = recorder();
    const mock = createMockFetch();
    const client = new Parley({ baseUrl: BASE, token: TOKEN, fetch: mock.fetch, logger, logLevel: 'info' });
    mock.json(201, { sessionId: 's1' });
    await client.sessions.create();
    expect(lines).toEqual([]);
  });

  it('PARLEY_LOG sets the level when logLevel is not given; the option wins over it', async () => {
    vi.stubEnv('PARLEY_LOG', 'debug');
    const { lines, logger } = recorder();
    const mock = createMockFetch();
    mock.json(201, { sessionId: 's1' });
    mock.json(201, { sessionId: 's2' });
    const consoleDebug = vi.spyOn(console, 'debug').mockImplementation(() => {});
    await new Parley({ baseUrl: BASE, token: TOKEN, fetch: mock.fetch }).sessions.create();
    expect(consoleDebug).toHaveBeenCalledTimes(2);
    consoleDebug.mockRestore();
    await new Parley({
      baseUrl: BASE,
      token: TOKEN,
      fetch: mock.fetch,
      logger,
      logLevel: 'off',
    }).sessions.create();
    expect(lines).toEqual([]);
    const { lines: debugLines, logger: debugLogger } = recorder();
    mock.json(201, { sessionId: 's3' });
    await new Parley({
      baseUrl: BASE,
      token: TOKEN,
      fetch: mock.fetch,
      logger: debugLogger,
    }).sessions.create();
    expect(debugLines).toHaveLength(2);
  });

  it('an unknown PARLEY_LOG is ignored with a warning; an unknown logLevel option is a TypeError', () => {
    vi.stubEnv('PARLEY_LOG', 'verbose');
    const { lines, logger } = recorder();
    new Parley({ baseUrl: BASE, token: TOKEN, logger });
    expect(lines).toEqual([['warn', expect.stringContaining('PARLEY_LOG=verbose is not a log level')]]);
    // @ts-expect-error not a level
    expect(() => new Parley({ baseUrl: BASE, token: TOKEN, logLevel: 'verbose' })).toThrow(TypeError);
  });

  it('a logger alone does not change the level: it gets the warnings, and request lines only with logLevel debug', async () => {
    const { lines, logger } = recorder();
    const mock = createMockFetch();
    mock.json(201, { sessionId: 's1' });
    await new Parley({ baseUrl: `${BASE}/v1`, token: TOKEN, fetch: mock.fetch, logger }).sessions
      .create()
      .catch(() => {});
    expect(lines.map(([level]) => level)).toEqual(['warn']);
  });

  it('without a logger and a level, only warnings reach the console', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const debug = vi.spyOn(console, 'debug').mockImplementation(() => {});
    try {
      new Parley({ baseUrl: `${BASE}/v1`, token: TOKEN });
      expect(warn).toHaveBeenCalledTimes(1);
      expect(warn.mock.calls[0]?.[0]).toContain(`use ${BASE} instead`);
      expect(debug).not.toHaveBeenCalled();
    } finally {
      warn.mockRestore();
      debug.mockRestore();
    }
  });
});
