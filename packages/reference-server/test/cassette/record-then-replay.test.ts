import { createCassetteRecorder, createReferenceServer, type ProxyExchange } from '@parley/reference-server';
import { Parley } from '@parley/sdk';
import { describe, expect, it } from 'vitest';
import { parseCassetteText } from '../../src/cassette/cassette-format.js';
import { formatCassette } from '../../src/cassette/cassette-text.js';
import { converse, recordedUpstream, UPSTREAM_TOKEN } from './conversation.js';

async function record() {
  const { recorder, client } = recordedUpstream();
  const transcript = await converse(client);
  return { transcript, cassette: recorder.cassette() };
}

describe('record then replay', () => {
  it('a recorded run replayed offline gives the SDK the same messages, tool calls and final texts', async () => {
    const { transcript, cassette } = await record();
    const offline = createReferenceServer({ replay: cassette });
    const client = new Parley({
      baseUrl: 'http://offline.test',
      token: 'parley-demo-token',
      maxRetries: 0,
      fetch: offline.fetch,
    });
    const replayed = await converse(client);
    expect(replayed).toEqual(transcript);
    expect(replayed.finalTexts).toEqual([
      'It is 18 degrees in Paris, and sunny.',
      'Sorry, I could not find Oslo.',
      'Why do programmers prefer dark mode? The light attracts bugs.',
    ]);
    // The recorded tool use ids are the replayed ones.
    expect(replayed.replies[0]?.tools).toEqual([
      { requestId: 'tooluse_paris', name: 'get_weather', input: { city: 'Paris' }, state: 'PENDING' },
    ]);
  });

  it('the cassette holds each session in order of creation with its customizations and turns', async () => {
    const { cassette } = await record();
    expect(cassette.sessions.map((s) => s.customizations?.sessionData)).toEqual([
      { user: 'ana' },
      { user: 'bo' },
    ]);
    const [first, second] = cassette.sessions;
    expect(first?.turns.map((t) => t.stopReason)).toEqual(['tool_use', 'end_turn', 'tool_use', 'end_turn']);
    expect(first?.turns[0]?.input).toEqual({
      user: [{ type: 'text', text: 'What is the weather in Paris?' }],
    });
    expect(first?.turns[0]?.content).toEqual([
      { type: 'text', text: 'Let me check.' },
      { type: 'tool_use', id: 'tooluse_paris', name: 'get_weather', input: { city: 'Paris' } },
    ]);
    expect(first?.turns[1]?.toolResponses).toEqual([
      {
        requestId: 'tooluse_paris',
        state: 'COMPLETE',
        response: { state: 'COMPLETE', temperatureC: 18, sky: 'sunny' },
      },
    ]);
    expect(first?.turns[1]?.input).toEqual({
      toolResults: [
        {
          type: 'tool_result',
          tool_use_id: 'tooluse_paris',
          content: [{ type: 'json', json: { temperatureC: 18, sky: 'sunny' } }],
          is_error: false,
        },
      ],
    });
    expect(first?.turns[3]?.toolResponses).toEqual([
      { requestId: 'tooluse_oslo', state: 'ERROR', error: 'City not found' },
    ]);
    expect(first?.turns[3]?.input).toMatchObject({ toolResults: [{ is_error: true }] });
    // Streamed turns keep their events and times; buffered ones have none.
    expect(first?.turns[0]?.events).toBeUndefined();
    const streamed = first?.turns[1]?.events ?? [];
    expect(Object.keys(streamed[0]?.event ?? {})).toEqual(['messageStart']);
    expect(streamed.map((e) => Object.keys(e.event)[0])).toContain('metadata');
    expect(streamed.every((e, i) => i === 0 || e.atMs >= streamed[i - 1]!.atMs)).toBe(true);
    expect(first?.turns[1]?.usage?.outputTokens).toBeGreaterThan(0);
    expect(second?.turns).toHaveLength(1);
  });

  it('the cassette text holds no bearer token: recorded by the checking proxy itself, not a stand-in', async () => {
    const { upstream } = recordedUpstream();
    const exchanges: ProxyExchange[] = [];
    const recorder = createCassetteRecorder();
    const proxy = createReferenceServer({
      upstream: {
        url: 'http://upstream.test',
        token: UPSTREAM_TOKEN,
        fetch: (url, init) => upstream.fetch(new Request(url, init)),
        observers: [recorder, { onExchange: (exchange) => exchanges.push(exchange) }],
        log: () => {},
      },
    });
    const client = new Parley({
      baseUrl: 'http://proxy.test',
      token: 'parley-demo-token',
      maxRetries: 0,
      fetch: proxy.fetch,
    });
    await converse(client);
    await proxy.close();
    // The proxy told its observers no authorization header, though every request carried one.
    expect(exchanges.length).toBeGreaterThan(5);
    expect(exchanges.every((e) => !('authorization' in e.requestHeaders))).toBe(true);
    const text = formatCassette(recorder.cassette());
    expect(recorder.cassette().sessions).toHaveLength(2);
    for (const token of [UPSTREAM_TOKEN, 'parley-demo-token']) {
      expect(text).not.toContain(token);
      expect(JSON.stringify(exchanges)).not.toContain(token);
    }
    expect(text.toLowerCase()).not.toContain('authorization');
    expect(text.toLowerCase()).not.toContain('bearer');
  });

  it('recording the same conversation twice gives the same text, which reads back as the same cassette', async () => {
    const one = formatCassette((await record()).cassette);
    const two = formatCassette((await record()).cassette);
    expect(two).toBe(one);
    expect(formatCassette(parseCassetteText(one))).toBe(one);
    // Diff-friendly: pretty-printed, one stream event per line.
    expect(one).toMatch(/^\{\n {2}"format": "parley-cassette",\n {2}"version": 2,\n/);
    expect(one).toMatch(/\n\s+\{"atMs":\d+,"event":\{"messageStart":/);
  });
});
