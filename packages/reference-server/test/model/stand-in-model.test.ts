import { createStandInModel, ModelError, standInModel } from '@parley/reference-server';
import { describe, expect, it } from 'vitest';
import type { Directive } from '../../src/model/directives.js';
import {
  fakeRequest,
  joinedText,
  kinds,
  msg,
  run,
  runToError,
  stopReason,
  textDeltas,
  toolUses,
} from './helpers.js';

describe('stand-in model: user text', () => {
  it('a message without directives is echoed as "You said: <text>"', async () => {
    const events = await run(standInModel, fakeRequest('Hello there, model'));
    expect(joinedText(events)).toBe('You said: Hello there, model');
    expect(stopReason(events)).toBe('end_turn');
  });

  it('text is streamed in several word-sized deltas that keep their trailing space', async () => {
    const events = await run(standInModel, fakeRequest('/say The quick brown fox.'));
    expect(textDeltas(events)).toEqual(['The ', 'quick ', 'brown ', 'fox.']);
  });

  it('a /say line answers with its text, and several /say lines join with a newline', async () => {
    const events = await run(standInModel, fakeRequest('/say First line.\n/say Second line.'));
    expect(joinedText(events)).toBe('First line.\nSecond line.');
    expect(stopReason(events)).toBe('end_turn');
  });

  it('lines that are not directives are ignored once a directive answers', async () => {
    const events = await run(standInModel, fakeRequest('some note\n/say Only this.'));
    expect(joinedText(events)).toBe('Only this.');
  });

  it('an unknown /word line is plain text, so "/usr/bin is a folder" is echoed', async () => {
    const events = await run(standInModel, fakeRequest('/usr/bin is a folder'));
    expect(joinedText(events)).toBe('You said: /usr/bin is a folder');
    const unknown = await run(standInModel, fakeRequest('/shrug whatever'));
    expect(joinedText(unknown)).toBe('You said: /shrug whatever');
    const proto = await run(standInModel, fakeRequest('/constructor x'));
    expect(joinedText(proto)).toBe('You said: /constructor x');
  });

  it('a /tool line emits a tool_use block whose input fragments join to the given JSON', async () => {
    const events = await run(standInModel, fakeRequest('/tool get_weather {"city":"Paris","days":3}'));
    const [use, ...rest] = toolUses(events);
    expect(rest).toEqual([]);
    expect(use?.name).toBe('get_weather');
    expect(use?.input).toEqual({ city: 'Paris', days: 3 });
    expect(use?.fragments.length).toBeGreaterThanOrEqual(2);
    expect(stopReason(events)).toBe('tool_use');
  });

  it('a /tool line without JSON calls the tool with {}', async () => {
    const events = await run(standInModel, fakeRequest('/tool list_files'));
    const [use] = toolUses(events);
    expect(use?.input).toEqual({});
    expect(use?.fragments.length).toBeGreaterThanOrEqual(2);
  });

  it('several /tool lines emit several tool_use blocks with unique tooluse_ ids', async () => {
    const events = await run(standInModel, fakeRequest('/tool a {"n":1}\n/tool b {"n":2}\n/tool a {"n":3}'));
    const uses = toolUses(events);
    expect(uses.map((u) => [u.name, u.input])).toEqual([
      ['a', { n: 1 }],
      ['b', { n: 2 }],
      ['a', { n: 3 }],
    ]);
    for (const use of uses) expect(use.toolUseId).toMatch(/^tooluse_[0-9a-f]{20}$/);
    expect(new Set(uses.map((u) => u.toolUseId)).size).toBe(3);
  });

  it('/say with /tool puts the text block first, then the tool_use blocks, and stops with tool_use', async () => {
    const events = await run(
      standInModel,
      fakeRequest('/tool get_weather {"city":"Paris"}\n/say Let me check.'),
    );
    expect(kinds(events)).toEqual([
      'messageStart',
      'contentBlockDelta',
      'contentBlockDelta',
      'contentBlockDelta',
      'contentBlockStop',
      'contentBlockStart',
      // {"city":"Paris"}: 16 characters in fragments of 4.
      'contentBlockDelta',
      'contentBlockDelta',
      'contentBlockDelta',
      'contentBlockDelta',
      'contentBlockStop',
      'messageStop',
      'metadata',
    ]);
    expect(events[4]).toEqual({ contentBlockStop: { contentBlockIndex: 0 } });
    expect(events[5]).toMatchObject({ contentBlockStart: { contentBlockIndex: 1 } });
    expect(joinedText(events)).toBe('Let me check.');
    expect(stopReason(events)).toBe('tool_use');
  });

  it('a /tool of a server tool produces an ordinary tool_use (the server decides who runs it)', async () => {
    const request = fakeRequest('/tool search_documents {"query":"refunds"}', {
      tools: [
        { name: 'search_documents', description: 'search', inputSchema: { type: 'object' }, kind: 'server' },
      ],
    });
    const [use] = toolUses(await run(standInModel, request));
    expect(use).toMatchObject({ name: 'search_documents', input: { query: 'refunds' } });
  });

  it('a /tool line with invalid JSON fails with a ModelError naming the line', async () => {
    const { error, events } = await runToError(
      standInModel,
      fakeRequest('/say hi\n/tool get_weather {city:Paris}'),
    );
    expect(error).toBeInstanceOf(ModelError);
    expect(error.message).toContain('line 2');
    expect(error.message).toContain('/tool get_weather {city:Paris}');
    expect(error.message).toContain('not valid JSON');
    expect(events).toEqual([]);
  });

  it('a /tool line whose JSON is not an object fails with a ModelError', async () => {
    const { error } = await runToError(standInModel, fakeRequest('/tool t [1,2]'));
    expect(error).toBeInstanceOf(ModelError);
    expect(error.message).toContain('must be a JSON object');
  });

  it('/fail with /say streams the text first, then throws ModelError(MESSAGE) mid-stream', async () => {
    const { error, events } = await runToError(standInModel, fakeRequest('/say Partial answer\n/fail Boom'));
    expect(error).toBeInstanceOf(ModelError);
    expect(error.message).toBe('Boom');
    expect((error as ModelError).code).toBe('model_error');
    expect(joinedText(events)).toBe('Partial answer');
    expect(kinds(events)).not.toContain('messageStop');
  });

  it('/fail alone fails before any event', async () => {
    const { error, events } = await runToError(standInModel, fakeRequest('/fail upstream exploded'));
    expect(error.message).toBe('upstream exploded');
    expect(events).toEqual([]);
  });

  it('/delay with a bad value fails with a ModelError naming the line', async () => {
    const { error } = await runToError(standInModel, fakeRequest('/delay soon'));
    expect(error.message).toContain('line 1');
  });

  it('a message with only modifiers echoes its plain lines', async () => {
    const events = await run(standInModel, fakeRequest('/delay 0\nHello'));
    expect(joinedText(events)).toBe('You said: Hello');
  });

  it('the last user message is answered even when a system message follows it', async () => {
    const events = await run(
      standInModel,
      fakeRequest([msg.user('/say From the user.'), msg.system('Context')]),
    );
    expect(joinedText(events)).toBe('From the user.');
  });

  it('several text blocks of one user message are read as lines of one text', async () => {
    const request = fakeRequest([
      {
        role: 'user',
        index: 0,
        content: [
          { type: 'text', text: '/say One.' },
          { type: 'text', text: '/say Two.' },
        ],
        deletedAt: null,
        createdAt: 0,
      },
    ]);
    expect(joinedText(await run(standInModel, request))).toBe('One.\nTwo.');
  });
});

describe('stand-in model: tool results', () => {
  const origin = msg.user('/say Checking.\n/tool get_weather {"city":"Paris"}\n/tool get_time {}');
  const uses = msg.toolUses({ id: 'tooluse_a', name: 'get_weather' }, { id: 'tooluse_b', name: 'get_time' });

  it('after tool results it answers with one summary line per result, naming the tool', async () => {
    const results = msg.toolResults(
      { id: 'tooluse_a', content: [{ type: 'json', json: { tempC: 21 } }] },
      { id: 'tooluse_b', content: [{ type: 'text', text: 'Clock is broken' }], isError: true },
    );
    const events = await run(standInModel, fakeRequest([origin, uses, results]));
    expect(joinedText(events)).toBe(
      'Tool get_weather returned {"tempC":21}.\nTool get_time failed: Clock is broken.',
    );
    expect(stopReason(events)).toBe('end_turn');
  });

  it('an abandoned call is reported as "Tool NAME was abandoned: ..."', async () => {
    const results = msg.toolResults(
      {
        id: 'tooluse_a',
        content: [{ type: 'text', text: 'Tool call abandoned: deadline passed' }],
        isError: true,
      },
      { id: 'tooluse_b', content: [{ type: 'json', json: { time: '12:00' } }] },
    );
    const events = await run(standInModel, fakeRequest([origin, uses, results]));
    expect(joinedText(events)).toBe(
      'Tool get_weather was abandoned: deadline passed.\nTool get_time returned {"time":"12:00"}.',
    );
  });

  it('a /then line of the message that started the tool round is the answer after the results', async () => {
    const start = msg.user('/tool get_weather {"city":"Paris"}\n/then It is sunny in Paris.');
    const results = msg.toolResults({ id: 'tooluse_a', content: [{ type: 'json', json: { sky: 'clear' } }] });
    const events = await run(
      standInModel,
      fakeRequest([msg.user('/say earlier'), msg.assistant('earlier'), start, uses, results]),
    );
    expect(joinedText(events)).toBe('It is sunny in Paris.');
    expect(stopReason(events)).toBe('end_turn');
    expect(toolUses(events)).toEqual([]);
  });

  it('the /then text is plain text, even when it looks like a directive', async () => {
    const start = msg.user('/tool t {}\n/then /tool t {}');
    const results = msg.toolResults({ id: 'tooluse_a', content: [{ type: 'json', json: {} }] });
    const events = await run(standInModel, fakeRequest([start, uses, results]));
    expect(joinedText(events)).toBe('/tool t {}');
    expect(toolUses(events)).toEqual([]);
  });

  it('a result whose tool_use is not in the conversation is named by its id', async () => {
    const results = msg.toolResults({ id: 'tooluse_zz', content: [{ type: 'json', json: 1 }] });
    const events = await run(standInModel, fakeRequest([msg.user('/tool x'), results]));
    expect(joinedText(events)).toBe('Tool tooluse_zz returned 1.');
  });
});

describe('stand-in model: extension directives', () => {
  it('createStandInModel adds a directive with one table entry', async () => {
    const search: Directive = {
      syntax: '/search QUERY',
      apply(argument, plan) {
        plan.toolUses.push({ name: 'search_documents', input: { query: argument } });
      },
    };
    const model = createStandInModel({ directives: { search } });
    const [use] = toolUses(await run(model, fakeRequest('/search refund policy')));
    expect(use).toMatchObject({ name: 'search_documents', input: { query: 'refund policy' } });
  });
});
