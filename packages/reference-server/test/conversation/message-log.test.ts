import type { Message } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { MessageLog } from '../../src/conversation/message-log.js';

function message(index: number, content: Message['content'], role: Message['role'] = 'user'): Message {
  return { role, index, content, deletedAt: null, createdAt: 1_700_000_000_000 + index };
}

describe('message log: what is stored is what an export returns', () => {
  it('every field of a message reads back as stored, whatever its content', () => {
    const log = new MessageLog();
    const stored = [
      message(0, [{ type: 'text', text: 'plain text' }]),
      message(1, [
        { type: 'text', text: 'a' },
        { type: 'text', text: 'b' },
      ]),
      message(2, [{ type: 'text', text: 'cited', citations: [{ source: 'doc-1' }] }], 'assistant'),
      message(
        3,
        [{ type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } }],
        'assistant',
      ),
      message(4, [], 'system'),
      { ...message(6, [{ type: 'text', text: '' }], 'assistant'), deletedAt: 1_700_000_000_009 },
    ];
    for (const m of stored) log.push(m);
    expect(log.length).toBe(stored.length);
    expect(log.all()).toEqual(stored);
    expect([...log]).toEqual(stored);
    expect(log.live()).toEqual(stored.slice(0, 5));
    expect(log.lastLivePosition()).toBe(4);
  });

  it('a message read before a retraction keeps deletedAt null (responses hold copies)', () => {
    const log = new MessageLog();
    log.push(message(0, [{ type: 'text', text: 'hello' }]));
    const before = log.at(0);
    log.retract(0, 42);
    expect(before.deletedAt).toBeNull();
    expect(log.at(0).deletedAt).toBe(42);
    expect(log.isLiveAt(0)).toBe(false);
    log.retract(0, 99);
    expect(log.at(0).deletedAt).toBe(42);
  });

  it('changing a message read from the log does not change the stored one', () => {
    const log = new MessageLog();
    log.push(message(0, [{ type: 'text', text: 'hello' }]));
    const read = log.at(0);
    (read.content[0] as { text: string }).text = 'changed';
    read.content.push({ type: 'text', text: 'more' });
    expect(log.at(0).content).toEqual([{ type: 'text', text: 'hello' }]);
  });

  it('tool uses are listed from every stored message, retracted ones included', () => {
    const log = new MessageLog();
    log.push(message(0, [{ type: 'text', text: 'weather?' }]));
    log.push(message(1, [{ type: 'tool_use', id: 'toolu_1', name: 'a', input: {} }], 'assistant'));
    log.push(message(2, [{ type: 'tool_use', id: 'toolu_2', name: 'b', input: {} }], 'assistant'));
    log.retract(2, 5);
    expect([...log.toolUses()].map((use) => use.id)).toEqual(['toolu_1', 'toolu_2']);
  });

  it('a retraction time that is not a finite number is a RangeError, never a message read as live', () => {
    const log = new MessageLog();
    log.push(message(0, [{ type: 'text', text: 'hello' }]));
    expect(() => log.retract(0, Number.NaN)).toThrow(RangeError);
    expect(() => log.push({ ...message(1, []), deletedAt: Number.POSITIVE_INFINITY })).toThrow(RangeError);
    expect(log.isLiveAt(0)).toBe(true);
    expect(log.length).toBe(1);
  });

  it('a position past the end is a RangeError, not an undefined message', () => {
    const log = new MessageLog();
    expect(() => log.at(0)).toThrow(RangeError);
    expect(() => log.contentAt(-1)).toThrow(RangeError);
  });
});
