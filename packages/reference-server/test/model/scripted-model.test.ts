import { ModelError, type ModelEvent, scriptedModel, turn } from '@parley/reference-server';
import { describe, expect, it } from 'vitest';
import { partialMatch } from '../../src/model/scripted-model.js';
import { fakeRequest, joinedText, msg, run, runToError, stopReason, toolUses } from './helpers.js';

const weatherResult = () => [
  msg.user('weather in Paris?'),
  msg.toolUses({ id: 't1', name: 'get_weather' }),
  msg.toolResults({ id: 't1', content: [{ type: 'json', json: { sky: 'clear' } }] }),
];
const weatherError = () => [
  msg.user('weather in Paris?'),
  msg.toolUses({ id: 't1', name: 'get_weather' }),
  msg.toolResults({ id: 't1', content: [{ type: 'text', text: 'API down' }], isError: true }),
];

describe('scripted model: a list of turns', () => {
  it('serves the turns in call order', async () => {
    const model = scriptedModel([
      turn.toolUse('get_weather', { city: 'Paris' }, { text: 'Checking.' }),
      turn.text('Sunny.'),
    ]);
    const first = await run(model, fakeRequest('anything'));
    expect(joinedText(first)).toBe('Checking.');
    expect(toolUses(first)[0]).toMatchObject({ name: 'get_weather', input: { city: 'Paris' } });
    expect(stopReason(first)).toBe('tool_use');
    const second = await run(model, fakeRequest(weatherResult()));
    expect(joinedText(second)).toBe('Sunny.');
  });

  it('a call past the end fails with no_script_match saying how many turns were scripted', async () => {
    const model = scriptedModel([turn.text('only one')]);
    await run(model, fakeRequest('a'));
    const { error, events } = await runToError(model, fakeRequest('b'));
    expect(error).toBeInstanceOf(ModelError);
    expect(error.code).toBe('no_script_match');
    expect(error.message).toContain('1 turn');
    expect(error.message).toContain('call 2');
    expect(events).toEqual([]);
  });

  it('turn.fail scripts a model failure', async () => {
    const { error } = await runToError(scriptedModel([turn.fail('Throttled')]), fakeRequest('a'));
    expect(error.message).toBe('Throttled');
    expect(error.code).toBe('model_error');
  });
});

describe('scripted model: a function', () => {
  it('may return a scripted turn built from the request', async () => {
    const model = scriptedModel((request) => turn.text(`turn ${request.turn}`));
    expect(joinedText(await run(model, fakeRequest('a', { turn: 4 })))).toBe('turn 4');
  });

  it('may return raw events, passed through unchanged', async () => {
    const events: ModelEvent[] = [
      { messageStart: { role: 'assistant' } },
      { contentBlockDelta: { contentBlockIndex: 0, delta: { text: 'raw' } } },
      { contentBlockStop: { contentBlockIndex: 0 } },
      { messageStop: { stopReason: 'end_turn' } },
    ];
    expect(
      await run(
        scriptedModel(() => events),
        fakeRequest('a'),
      ),
    ).toEqual(events);
  });

  it('may return an async iterable of events (or a promise of a turn)', async () => {
    async function* gen(): AsyncGenerator<ModelEvent> {
      yield { messageStart: { role: 'assistant' } };
      yield { messageStop: { stopReason: 'stop_sequence' } };
    }
    expect(
      stopReason(
        await run(
          scriptedModel(() => gen()),
          fakeRequest('a'),
        ),
      ),
    ).toBe('stop_sequence');
    expect(
      joinedText(
        await run(
          scriptedModel(async () => turn.text('later')),
          fakeRequest('a'),
        ),
      ),
    ).toBe('later');
  });

  it('a function that throws fails the model', async () => {
    const model = scriptedModel(() => {
      throw new ModelError('nope', { code: 'no_script_match' });
    });
    const { error } = await runToError(model, fakeRequest('a'));
    expect(error.code).toBe('no_script_match');
  });
});

describe('scripted model: rules', () => {
  const rules = scriptedModel({
    rules: [
      { name: 'tool error', match: { hasToolError: true }, reply: turn.text('The tool failed, sorry.') },
      { match: { hasToolResult: true }, reply: turn.text('It is sunny.') },
      { match: { lastUserText: 'weather' }, reply: turn.toolUse('get_weather', { city: 'Paris' }) },
      { match: { lastUserText: /^hello\b/i }, reply: turn.text('Hi!') },
      { match: { lastUserText: { regex: 'bye$', flags: 'i' } }, reply: turn.text('Goodbye!') },
    ],
  });

  it('lastUserText matches the last user message by substring', async () => {
    const events = await run(rules, fakeRequest('what is the weather like?'));
    expect(toolUses(events)[0]?.name).toBe('get_weather');
  });

  it('lastUserText matches by RegExp, or by a {regex, flags} object', async () => {
    expect(joinedText(await run(rules, fakeRequest('HELLO there')))).toBe('Hi!');
    expect(joinedText(await run(rules, fakeRequest('ok BYE')))).toBe('Goodbye!');
  });

  it('a global RegExp matches every time (lastIndex does not leak between calls)', async () => {
    const model = scriptedModel({ rules: [{ match: { lastUserText: /a/g }, reply: turn.text('yes') }] });
    for (let i = 0; i < 3; i++) expect(joinedText(await run(model, fakeRequest('a')))).toBe('yes');
  });

  it('hasToolResult and hasToolError match tool-result turns; the first matching rule wins', async () => {
    expect(joinedText(await run(rules, fakeRequest(weatherResult())))).toBe('It is sunny.');
    expect(joinedText(await run(rules, fakeRequest(weatherError())))).toBe('The tool failed, sorry.');
  });

  it('lastUserText does not match a tool-result turn, so a tool rule cannot repeat after its result', async () => {
    const model = scriptedModel({
      rules: [{ match: { lastUserText: 'weather' }, reply: turn.toolUse('get_weather') }],
    });
    const { error } = await runToError(model, fakeRequest(weatherResult()));
    expect(error.code).toBe('no_script_match');
  });

  it('turn matches request.turn', async () => {
    const model = scriptedModel({
      rules: [
        { match: { turn: 0 }, reply: turn.text('first') },
        { match: { turn: 1 }, reply: turn.text('second') },
      ],
    });
    expect(joinedText(await run(model, fakeRequest('x', { turn: 1 })))).toBe('second');
  });

  it('customizations is a partial deep match on the session customizations', async () => {
    const model = scriptedModel({
      rules: [
        { match: { customizations: { extensions: { mcpProviders: ['erp'] } } }, reply: turn.text('erp') },
        { match: { customizations: { agentId: 'support' } }, reply: turn.text('support') },
      ],
    });
    const erp = fakeRequest('x', {
      customizations: { agentId: 'sales', extensions: { mcpProviders: ['erp'] } },
    });
    expect(joinedText(await run(model, erp))).toBe('erp');
    const support = fakeRequest('x', { customizations: { agentId: 'support', product: 'p' } });
    expect(joinedText(await run(model, support))).toBe('support');
  });

  it('when() is an escape hatch on the whole request', async () => {
    const model = scriptedModel({
      rules: [{ match: { when: (request) => request.messages.length > 2 }, reply: turn.text('long') }],
      strict: false,
    });
    expect(joinedText(await run(model, fakeRequest(weatherResult())))).toBe('long');
    expect(joinedText(await run(model, fakeRequest('short')))).toBe('You said: short');
  });

  it('strict mode (the default) fails with no_script_match, listing each rule tried and why it missed', async () => {
    const { error, events } = await runToError(rules, fakeRequest('nothing scripted', { turn: 2 }));
    expect(error).toBeInstanceOf(ModelError);
    expect(error.code).toBe('no_script_match');
    expect(error.message).toContain('turn 2');
    expect(error.message).toContain('"nothing scripted"');
    expect(error.message).toContain('#1 "tool error": hasToolError is false, not true');
    expect(error.message).toContain('#3: lastUserText "weather" did not match');
    expect(error.message).toContain('#4: lastUserText /^hello\\b/i did not match');
    expect(error.message).toContain('#5: lastUserText /bye$/i did not match');
    expect(events).toEqual([]);
  });

  it('non-strict mode hands unmatched requests to the stand-in model by default, or to fallback', async () => {
    const lenient = scriptedModel({ rules: [], strict: false });
    expect(joinedText(await run(lenient, fakeRequest('/say from the stand-in')))).toBe('from the stand-in');
    const withFallback = scriptedModel({
      rules: [],
      strict: false,
      fallback: scriptedModel([turn.text('fb')]),
    });
    expect(joinedText(await run(withFallback, fakeRequest('x')))).toBe('fb');
  });

  it('an empty rule list in strict mode says the script has no rules', async () => {
    const { error } = await runToError(scriptedModel({ rules: [] }), fakeRequest('x'));
    expect(error.message).toContain('the script has no rules');
  });
});

describe('partialMatch', () => {
  it('objects match on the given keys, arrays and primitives match whole', () => {
    expect(partialMatch({ a: 1, b: { c: 2, d: 3 } }, { b: { c: 2 } })).toBe(true);
    expect(partialMatch({ a: [1, 2] }, { a: [1] })).toBe(false);
    expect(partialMatch({ a: [{ x: 1, y: 2 }] }, { a: [{ x: 1 }] })).toBe(true);
    expect(partialMatch({}, { a: undefined })).toBe(false);
    expect(partialMatch({ a: '1' }, { a: 1 })).toBe(false);
  });
});
