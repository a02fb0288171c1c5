// The folding of a message's content events that the SDK's stream and the server's cassettes share.
import { MessageFold, parseToolInput } from '@parley/protocol/reply-folding';
import { describe, expect, it } from 'vitest';

describe('MessageFold', () => {
  it('a text block opens on its first text delta and appends the next ones', () => {
    const fold = new MessageFold();
    expect(fold.delta(0, { text: 'Hel' })).toMatchObject({ kind: 'text', delta: 'Hel' });
    expect(fold.delta(0, { text: 'lo' })).toMatchObject({ kind: 'text', delta: 'lo' });
    expect(fold.content).toEqual([{ type: 'text', text: 'Hello' }]);
  });

  it("a tool_use block collects its input's JSON fragments, parsed only by the caller", () => {
    const fold = new MessageFold();
    const block = fold.start(1, { toolUse: { toolUseId: 'tu_1', name: 'get_weather' } });
    fold.delta(1, { toolUse: { input: '{"city":' } });
    fold.delta(1, { toolUse: { input: '"Paris"}' } });
    expect(block).toEqual({ type: 'tool_use', id: 'tu_1', name: 'get_weather', input: {} });
    if (block?.type !== 'tool_use') throw new Error('no tool_use block');
    expect(parseToolInput(fold.inputText(block))).toEqual({ city: 'Paris' });
  });

  it('a tool_result block collects text and JSON parts, and status "error" marks it is_error', () => {
    const fold = new MessageFold();
    fold.start(0, { toolResult: { toolUseId: 'tu_1', status: 'error' } });
    fold.delta(0, { toolResult: [{ text: 'boom' }, { json: { code: 7 } }] });
    expect(fold.content).toEqual([
      {
        type: 'tool_result',
        tool_use_id: 'tu_1',
        content: [
          { type: 'text', text: 'boom' },
          { type: 'json', json: { code: 7 } },
        ],
        is_error: true,
      },
    ]);
  });

  it('a delta for a block that is not open, or of another kind than the open block, is dropped', () => {
    const fold = new MessageFold();
    expect(fold.delta(3, { toolUse: { input: '{}' } })).toBeUndefined();
    expect(fold.delta(3, { toolResult: [{ text: 'x' }] })).toBeUndefined();
    fold.start(0, { toolUse: { toolUseId: 'tu_1', name: 'lookup' } });
    expect(fold.delta(0, { text: 'stray' })).toBeUndefined();
    expect(fold.content).toEqual([{ type: 'tool_use', id: 'tu_1', name: 'lookup', input: {} }]);
  });

  it('a stopped block is closed: a later text delta at its index opens a new block', () => {
    const fold = new MessageFold();
    fold.delta(0, { text: 'a' });
    fold.stop(0);
    fold.delta(0, { text: 'b' });
    expect(fold.content).toEqual([
      { type: 'text', text: 'a' },
      { type: 'text', text: 'b' },
    ]);
  });
});

describe('parseToolInput', () => {
  it('an empty or blank tool input is {}; text that is not JSON throws', () => {
    expect(parseToolInput('')).toEqual({});
    expect(parseToolInput('  ')).toEqual({});
    expect(() => parseToolInput('{"a":')).toThrow(SyntaxError);
  });
});
