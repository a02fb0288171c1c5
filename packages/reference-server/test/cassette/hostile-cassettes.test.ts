import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  type Cassette,
  createCassetteRecorder,
  createReferenceServer,
  formatCassette,
  InvalidCassetteError,
  parseCassette,
  parseCassetteText,
  readCassetteFile,
  turn,
} from '@parley/reference-server';
import { describe, expect, it } from 'vitest';

const fixture = (name: string) => fileURLToPath(new URL(`./cassettes/hostile/${name}`, import.meta.url));

/** The error a cassette gives when it loads. */
function loadError(load: () => unknown): InvalidCassetteError {
  try {
    load();
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidCassetteError);
    return error as InvalidCassetteError;
  }
  throw new Error('the cassette loaded');
}

const emptyTurn = (events: unknown[]) => ({
  input: { user: [{ type: 'text', text: 'Hi' }] },
  content: [],
  events: events.map((event, i) => ({ atMs: i, event })),
});

describe('a cassette is checked against the protocol when it loads', () => {
  it('recorded events a replay would send on are refused, each issue naming its field', () => {
    const file = fixture('protocol-invalid-events.json');
    const error = loadError(() => readCassetteFile(file));
    const at = 'sessions.0.turns.0.events';
    expect(error.issues).toEqual([
      `${at}.1.event.contentBlockStart.start.toolUse.toolUseId: Invalid input: expected string, received number`,
      `${at}.5.event.metadata.usage.inputTokens: Invalid input: expected number, received string`,
      `${at}.5.event.metadata.usage.outputTokens: Invalid input: expected number, received string`,
      `${at}.5.event.metadata.usage.totalTokens: Invalid input: expected number, received string`,
      `${at}.6.event: an event is an object with one key, its kind (it has 2)`,
    ]);
    expect(error.message).toMatch(
      new RegExp(`^Invalid cassette ${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: `),
    );
    // The event of a kind to come (someFutureKind) is no issue: a replay leaves it out.
    expect(error.message).not.toContain('someFutureKind');
    // As a replay option it fails the server's creation, not the first send.
    expect(() => createReferenceServer({ replay: file })).toThrow(InvalidCassetteError);
  });

  it('a parsed cassette passed as replay is checked when the server is created', () => {
    const cassette = JSON.parse(readFileSync(fixture('protocol-invalid-events.json'), 'utf8')) as Cassette;
    const error = loadError(() => createReferenceServer({ replay: cassette }));
    expect(error.message).toMatch(/^Invalid cassette given in code: sessions\.0\.turns\.0\.events\.1\.event/);
    const named = loadError(() => createReferenceServer({ replay: { cassette, name: 'weather (inline)' } }));
    expect(named.source).toBe('weather (inline)');
    // A cassette that breaks the format itself too.
    const broken = {
      format: 'parley-cassette',
      version: 1,
      sessions: [{ turns: [] }],
    } as unknown as Cassette;
    expect(() => createReferenceServer({ replay: broken })).toThrow(/sessions\.0\.customizations/);
  });

  it('a 5 MB version is not echoed whole, and a file with thousands of bad fields lists 20 of them', () => {
    const huge = 'v'.repeat(5 * 1024 * 1024);
    const version = loadError(() =>
      parseCassette({ format: 'parley-cassette', version: huge, sessions: [] }),
    );
    expect(version.message).toBe(
      `Invalid cassette the cassette: version "${'v'.repeat(39)}... is not supported; this server reads versions 1 and 2`,
    );
    const badKey = `k${'x'.repeat(1024 * 1024)}`;
    const many = loadError(() =>
      parseCassette({
        format: 'parley-cassette',
        version: 1,
        sessions: [
          {
            customizations: null,
            turns: [emptyTurn(Array.from({ length: 5000 }, () => ({ metadata: { usage: {} } })))],
          },
        ],
      }),
    );
    expect(many.issues).toHaveLength(21);
    expect(many.issues[0]).toBe(
      'sessions.0.turns.0.events.0.event.metadata.usage.inputTokens: Invalid input: expected number, received undefined',
    );
    expect(many.issues.at(-1)).toBe('and 14980 more');
    const key = loadError(() =>
      parseCassette({
        format: 'parley-cassette',
        version: 1,
        sessions: [{ customizations: null, turns: [{ ...emptyTurn([]), [badKey]: 1 }] }],
      }),
    );
    const whole = `sessions.0.turns.0: Unrecognized key: "${badKey}"`;
    expect(key.issues).toEqual([`${whole.slice(0, 200)}...`]);
  });
});

describe('a key named __proto__ in a cassette', () => {
  it('is kept as data in recorded JSON (customizations, tool input) and replayed as sent', async () => {
    const file = fixture('proto-keys-as-data.json');
    const cassette = readCassetteFile(file);
    const session = cassette.sessions[0];
    const sessionData = session?.customizations?.sessionData as Record<string, unknown>;
    expect(Object.hasOwn(sessionData, '__proto__')).toBe(true);
    expect(sessionData.isAdmin).toBeUndefined();
    const block = session?.turns[0]?.content[0] as { input: Record<string, unknown> };
    expect(Object.hasOwn(block.input, '__proto__')).toBe(true);

    const server = createReferenceServer({ replay: file });
    const headers = { authorization: 'Bearer parley-demo-token', 'content-type': 'application/json' };
    const created = await server.fetch(
      new Request('http://parley.test/v1/sessions', {
        method: 'POST',
        headers,
        body: JSON.stringify({
          customizations: {
            extensions: {
              tools: {
                get_weather: { name: 'get_weather', description: 'Weather', requestArgs: { type: 'object' } },
              },
            },
          },
        }),
      }),
    );
    const { sessionId } = await created.json();
    const reply = await server.fetch(
      new Request(`http://parley.test/v1/messages/${sessionId}`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ content: 'Weather in Paris?' }),
      }),
    );
    expect(reply.status).toBe(200);
    const { pendingTools } = (await reply.json()) as {
      pendingTools: Array<{ input: Record<string, unknown> }>;
    };
    const input = pendingTools[0]?.input ?? {};
    expect(Object.hasOwn(input, '__proto__')).toBe(true);
    expect(Object.getOwnPropertyDescriptor(input, '__proto__')?.value).toEqual({ polluted: true });
    expect(input.city).toBe('Paris');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('where the format has no free-form JSON (a turn) is refused, naming it', () => {
    const error = loadError(() => readCassetteFile(fixture('proto-key-in-the-format.json')));
    expect(error.issues).toEqual(['sessions.0.turns.0: Unrecognized key: "__proto__"']);
  });

  it('that the upstream sent is recorded through the proxy, written to the file and read back as data', async () => {
    const upstream = createReferenceServer();
    const input = JSON.parse('{"__proto__":{"polluted":true},"city":"Paris"}') as Record<string, unknown>;
    upstream.script([turn.toolUses([{ id: 'tooluse_1', name: 'get_weather', input }])]);
    const recorder = createCassetteRecorder();
    const proxy = createReferenceServer({
      upstream: {
        url: 'http://upstream.test',
        fetch: (url, init) => upstream.fetch(new Request(url, init)),
        observers: [recorder],
        log: () => {},
      },
    });
    const headers = { authorization: 'Bearer parley-demo-token', 'content-type': 'application/json' };
    const tools = {
      get_weather: { name: 'get_weather', description: 'Weather', requestArgs: { type: 'object' } },
    };
    const created = await proxy.fetch(
      new Request('http://proxy.test/v1/sessions', {
        method: 'POST',
        headers,
        body: JSON.stringify({ customizations: { extensions: { tools } } }),
      }),
    );
    const { sessionId } = await created.json();
    await (
      await proxy.fetch(
        new Request(`http://proxy.test/v1/messages/${sessionId}/stream`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ content: 'Weather in Paris?' }),
        }),
      )
    ).text();
    await proxy.close();

    const text = formatCassette(recorder.cassette());
    expect(text).toContain('"__proto__": {');
    const block = parseCassetteText(text).sessions[0]?.turns[0]?.content[0] as {
      input: Record<string, unknown>;
    };
    expect(Object.getOwnPropertyDescriptor(block.input, '__proto__')?.value).toEqual({ polluted: true });
    expect(block.input.polluted).toBeUndefined();
  });
});
