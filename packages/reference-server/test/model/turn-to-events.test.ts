import {
  createStandInModel,
  ManualClock,
  ModelError,
  type ModelEvent,
  standInModel,
  turn,
  turnToEvents,
} from '@parley/reference-server';
import { describe, expect, it } from 'vitest';
import { jsonFragments, textChunks } from '../../src/model/model-events.js';
import {
  collect,
  fakeRequest,
  joinedText,
  kinds,
  msg,
  run,
  runToError,
  stopReason,
  toolUses,
  usage,
} from './helpers.js';

describe('turnToEvents', () => {
  it('a text-only turn streams messageStart, text deltas, contentBlockStop, messageStop, metadata', async () => {
    const events = await collect(turnToEvents(turn.text('Hello world'), fakeRequest('hi')));
    expect(events).toEqual([
      { messageStart: { role: 'assistant' } },
      { contentBlockDelta: { contentBlockIndex: 0, delta: { text: 'Hello ' } } },
      { contentBlockDelta: { contentBlockIndex: 0, delta: { text: 'world' } } },
      { contentBlockStop: { contentBlockIndex: 0 } },
      { messageStop: { stopReason: 'end_turn' } },
      {
        metadata: {
          usage: { inputTokens: 1, outputTokens: 2, totalTokens: 3 },
          metrics: { latencyMs: 0 },
        },
      },
    ]);
  });

  it('a tool-only turn numbers its first block 0 and uses the scripted id when given', async () => {
    const scripted = { toolUses: [{ name: 'lookup', input: { q: 'x' }, id: 'tooluse_fixed' }] };
    const events = await collect(turnToEvents(scripted, fakeRequest('hi')));
    expect(events[1]).toEqual({
      contentBlockStart: {
        contentBlockIndex: 0,
        start: { toolUse: { toolUseId: 'tooluse_fixed', name: 'lookup' } },
      },
    });
    expect(toolUses(events)[0]?.input).toEqual({ q: 'x' });
    expect(stopReason(events)).toBe('tool_use');
  });

  it('an empty turn is a message with no blocks that ends the turn', async () => {
    const events = await collect(turnToEvents({}, fakeRequest('hi')));
    expect(kinds(events)).toEqual(['messageStart', 'messageStop', 'metadata']);
    expect(stopReason(events)).toBe('end_turn');
  });

  it('an explicit stopReason overrides the computed one', async () => {
    const events = await collect(
      turnToEvents(turn.text('Filtered', { stopReason: 'content_filtered' }), fakeRequest('x')),
    );
    expect(stopReason(events)).toBe('content_filtered');
  });

  it('usage counts whitespace-separated words: input over all live messages, output over words produced', async () => {
    const request = fakeRequest([
      msg.system('three word context'),
      msg.user('one two'),
      msg.toolUses({ id: 't1', name: 'get_weather', input: { city: 'Paris' } }),
      msg.toolResults({ id: 't1', content: [{ type: 'text', text: 'sunny and warm' }] }),
    ]);
    const events = await collect(
      turnToEvents(turn.toolUse('lookup', { a: 1 }, { text: 'Four words right here' }), request),
    );
    // input: 3 + 2 + (get_weather + {"city":"Paris"}) 2 + 3 = 10; output: 4 + (lookup + {"a":1}) 2 = 6
    expect(usage(events)?.usage).toEqual({ inputTokens: 10, outputTokens: 6, totalTokens: 16 });
  });

  it('maxTokens cuts an answer longer than that many words and stops with max_tokens', async () => {
    const events = await run(standInModel, fakeRequest('/say one two three four five', { maxTokens: 3 }));
    expect(joinedText(events)).toBe('one two three');
    expect(stopReason(events)).toBe('max_tokens');
    expect(usage(events)?.usage.outputTokens).toBe(3);
  });

  it('maxTokens that cuts the text drops the tool uses', async () => {
    const events = await run(standInModel, fakeRequest('/say one two three\n/tool t {}', { maxTokens: 2 }));
    expect(toolUses(events)).toEqual([]);
    expect(stopReason(events)).toBe('max_tokens');
  });

  it('an answer of exactly maxTokens words is not cut', async () => {
    const events = await run(standInModel, fakeRequest('/say one two three', { maxTokens: 3 }));
    expect(joinedText(events)).toBe('one two three');
    expect(stopReason(events)).toBe('end_turn');
  });

  it('/delay waits MS on the request clock between deltas, not before the first', async () => {
    const clock = new ManualClock();
    const it = standInModel(fakeRequest('/delay 250\n/say a b c', { clock }))[Symbol.asyncIterator]();
    expect((await it.next()).value).toEqual({ messageStart: { role: 'assistant' } });
    expect((await it.next()).value).toMatchObject({ contentBlockDelta: { delta: { text: 'a ' } } });

    let settled = false;
    const second = it.next().then((result) => {
      settled = true;
      return result;
    });
    await Promise.resolve();
    await Promise.resolve();
    expect(settled).toBe(false);
    expect(clock.pendingSleeps).toBe(1);
    await clock.advance(249);
    await Promise.resolve();
    expect(settled).toBe(false);
    await clock.advance(1);
    expect((await second).value).toMatchObject({ contentBlockDelta: { delta: { text: 'b ' } } });

    const third = it.next();
    await Promise.resolve();
    await clock.advance(250);
    expect((await third).value).toMatchObject({ contentBlockDelta: { delta: { text: 'c' } } });

    const rest: ModelEvent[] = [];
    for (let r = await it.next(); !r.done; r = await it.next()) rest.push(r.value);
    expect(kinds(rest)).toEqual(['contentBlockStop', 'messageStop', 'metadata']);
    expect(usage(rest)?.metrics?.latencyMs).toBe(500);
  });

  it('/delay also paces tool input fragments', async () => {
    const clock = new ManualClock();
    const events: ModelEvent[] = [];
    let finished = false;
    const done = (async () => {
      for await (const event of standInModel(fakeRequest('/delay 10\n/tool t {"k":"v"}', { clock }))) {
        events.push(event);
      }
      finished = true;
    })();
    while (!finished) {
      if (clock.pendingSleeps > 0) await clock.advance(10);
      else await Promise.resolve();
    }
    await done;
    expect(toolUses(events)[0]?.input).toEqual({ k: 'v' });
    // {"k":"v"} is 9 characters: three fragments of at most 4, a wait before the second and third.
    expect(events.filter((e) => 'contentBlockDelta' in e)).toHaveLength(3);
    expect(usage(events)?.metrics?.latencyMs).toBe(20);
  });

  it('toolInputFragmentLength sets the size of the tool input fragments, never fewer than two', async () => {
    const fragmentsOf = async (length: number | undefined, input: string) => {
      const model = createStandInModel(length === undefined ? {} : { toolInputFragmentLength: length });
      const events: ModelEvent[] = [];
      for await (const event of model(fakeRequest(`/tool t ${input}`))) events.push(event);
      return events.flatMap((e) => {
        const delta = 'contentBlockDelta' in e ? e.contentBlockDelta.delta : undefined;
        return delta && 'toolUse' in delta ? [delta.toolUse.input] : [];
      });
    };
    const input = '{"city":"Paris"}';
    expect(await fragmentsOf(undefined, input)).toEqual(['{"ci', 'ty":', '"Par', 'is"}']);
    expect(await fragmentsOf(1, input)).toEqual(Array.from(input));
    expect(await fragmentsOf(100, input)).toEqual(['{"city":', '"Paris"}']);
  });

  it('an aborted signal stops the stream: no further events, the iteration rejects with the reason', async () => {
    const controller = new AbortController();
    const it = standInModel(fakeRequest('/say one two three', { signal: controller.signal }))[
      Symbol.asyncIterator
    ]();
    await it.next();
    await it.next();
    controller.abort(new Error('client went away'));
    await expect(it.next()).rejects.toThrow('client went away');
    expect((await it.next()).done).toBe(true);
  });

  it('an abort during a /delay sleep ends the stream at once', async () => {
    const clock = new ManualClock();
    const controller = new AbortController();
    const it = standInModel(fakeRequest('/delay 1000\n/say one two', { clock, signal: controller.signal }))[
      Symbol.asyncIterator
    ]();
    await it.next();
    await it.next();
    const pending = it.next();
    controller.abort(new Error('stop'));
    await expect(pending).rejects.toThrow('stop');
    expect(clock.pendingSleeps).toBe(0);
  });

  it('a request aborted before the first event yields nothing', async () => {
    const controller = new AbortController();
    controller.abort(new Error('too late'));
    const { error, events } = await runToError(
      standInModel,
      fakeRequest('hello', { signal: controller.signal }),
    );
    expect(error.message).toBe('too late');
    expect(events).toEqual([]);
  });

  it('turn.fail after text throws a ModelError after the text deltas', async () => {
    const { error, events } = await runToError(
      () => turnToEvents(turn.fail('Overloaded', { text: 'Half an' }), fakeRequest('x')),
      fakeRequest('x'),
    );
    expect(error).toBeInstanceOf(ModelError);
    expect(error.message).toBe('Overloaded');
    expect(kinds(events)).toEqual(['messageStart', 'contentBlockDelta', 'contentBlockDelta']);
  });
});

describe('chunking helpers', () => {
  it('textChunks keeps leading and trailing whitespace so joining gives the exact text', () => {
    expect(textChunks('  a  b\n c ')).toEqual(['  a  ', 'b\n ', 'c ']);
    expect(textChunks('   ')).toEqual(['   ']);
    expect(textChunks('')).toEqual([]);
  });

  it('jsonFragments always gives at least two fragments and never splits a surrogate pair', () => {
    expect(jsonFragments('{}')).toEqual(['{', '}']);
    const json = JSON.stringify({ emoji: '😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀' });
    const fragments = jsonFragments(json);
    expect(fragments.join('')).toBe(json);
    const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
    for (const fragment of fragments) expect(fragment).not.toMatch(loneSurrogate);
  });
});
