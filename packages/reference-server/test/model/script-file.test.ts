import {
  type InvalidScriptError,
  isInvalidScriptError,
  loadScript,
  scriptedModel,
} from '@parley/reference-server';
import { describe, expect, it } from 'vitest';
import { fakeRequest, joinedText, msg, run, runToError, toolUses } from './helpers.js';

function loadError(json: unknown): InvalidScriptError {
  try {
    loadScript(json);
  } catch (error) {
    if (isInvalidScriptError(error)) return error;
    throw error;
  }
  throw new Error('expected loadScript to throw');
}

describe('loadScript', () => {
  it('a JSON rules file becomes rules for scriptedModel, regex objects included', async () => {
    const file = JSON.parse(`{
      "description": "weather demo",
      "rules": [
        { "match": { "hasToolResult": true }, "reply": { "text": "Sunny in Paris." } },
        { "name": "weather", "match": { "lastUserText": { "regex": "weather", "flags": "i" } },
          "reply": { "text": "Checking.", "toolUses": [{ "name": "get_weather", "input": { "city": "Paris" } }] } },
        { "match": { "lastUserText": "hello", "turn": 0 }, "reply": { "text": "Hi!" } }
      ]
    }`);
    const model = scriptedModel(loadScript(file));
    const first = await run(model, fakeRequest('WEATHER please'));
    expect(toolUses(first)[0]).toMatchObject({ name: 'get_weather', input: { city: 'Paris' } });
    const results = msg.toolResults({ id: 't', content: [{ type: 'json', json: {} }] });
    expect(joinedText(await run(model, fakeRequest([msg.user('x'), results])))).toBe('Sunny in Paris.');
    expect(joinedText(await run(model, fakeRequest('hello')))).toBe('Hi!');
    const { error } = await runToError(model, fakeRequest('unknown'));
    expect(error.code).toBe('no_script_match');
  });

  it('"strict": false is carried over, and the result has no undefined members', () => {
    expect(loadScript({ strict: false, rules: [{ match: {}, reply: { text: 'x' } }] })).toEqual({
      strict: false,
      rules: [{ match: {}, reply: { text: 'x' } }],
    });
  });

  it('a JSON turns file becomes a list of turns, tool input defaulting to {}', () => {
    expect(loadScript({ turns: [{ toolUses: [{ name: 't' }] }, { fail: 'boom', delayMs: 5 }] })).toEqual([
      { toolUses: [{ name: 't', input: {} }] },
      { fail: 'boom', delayMs: 5 },
    ]);
  });

  it('a bad regex is reported at its path', () => {
    const error = loadError({ rules: [{ match: { lastUserText: { regex: '(' } }, reply: {} }] });
    expect(error.issues[0]?.path).toBe('rules[0].match.lastUserText.regex');
    expect(error.message).toContain('rules[0].match.lastUserText.regex');
  });

  it('a matcher of the wrong type is reported at its path', () => {
    const error = loadError({ rules: [{ match: { lastUserText: 5 }, reply: {} }] });
    expect(error.message).toContain('rules[0].match.lastUserText: must be a substring or {"regex"');
  });

  it('unknown fields are rejected so a typo is not silently ignored', () => {
    const error = loadError({ rules: [{ match: { lastUserTxt: 'a' }, reply: {} }] });
    expect(error.issues[0]).toMatchObject({ path: 'rules[0].match' });
    expect(error.message).toContain('lastUserTxt');
  });

  it('bad turn fields are reported at their path', () => {
    const error = loadError({
      turns: [{ text: 'ok' }, { toolUses: [{ name: '', input: [] }] }, { delayMs: -1 }],
    });
    expect(error.issues.map((issue) => issue.path)).toEqual([
      'turns[1].toolUses[0].name',
      'turns[1].toolUses[0].input',
      'turns[2].delayMs',
    ]);
  });

  it('a script needs exactly one of "rules" and "turns"', () => {
    expect(loadError({}).message).toContain('either "rules" or "turns"');
    expect(loadError({ rules: [], turns: [] }).message).toContain('either "rules" or "turns"');
    expect(loadError([]).issues[0]?.path).toBe('(root)');
  });
});
