import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { StreamBodyParser } from '../../src/streaming/stream-body-parser.js';
import { streamBody, toolUseEvents } from '../helpers/stream-fixtures.js';

function parse(chunks: Uint8Array[]) {
  const events: unknown[] = [];
  let sessionId: string | undefined;
  const parser = new StreamBodyParser({
    sessionId: (id) => {
      sessionId = id;
    },
    event: (raw) => events.push(raw),
  });
  for (const chunk of chunks) parser.write(chunk);
  parser.end();
  return { events, sessionId };
}

function splitAt(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let from = 0;
  for (const point of points) {
    chunks.push(bytes.slice(from, point));
    from = point;
  }
  chunks.push(bytes.slice(from));
  return chunks;
}

describe('StreamBodyParser', () => {
  const events = [
    ...toolUseEvents(),
    { someFutureEvent: { nested: { ü: 'é€😀', list: [1, 2, { deep: true }] } } },
  ];
  const bytes = new TextEncoder().encode(streamBody(events));

  it('yields the sessionId and every event of a whole body', () => {
    expect(parse([bytes])).toEqual({ events, sessionId: 'sess_1' });
  });

  it('gives the same events however the bytes are split (even inside UTF-8 sequences)', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(), { maxLength: 40 }), (cuts) => {
        expect(parse(splitAt(bytes, cuts))).toEqual({ events, sessionId: 'sess_1' });
      }),
      { numRuns: 300 },
    );
  });

  it('parses byte by byte', () => {
    expect(parse([...bytes].map((b) => Uint8Array.of(b))).events).toEqual(events);
  });

  it('emits each event as soon as it closes', () => {
    const seen: unknown[] = [];
    const parser = new StreamBodyParser({ sessionId: () => {}, event: (raw) => seen.push(raw) });
    parser.write('{"sessionId":"s","events":[{"a":1}');
    expect(seen).toEqual([{ a: 1 }]);
    parser.write(',{"b":');
    expect(seen).toHaveLength(1);
  });

  it('accepts a trailing newline', () => {
    expect(parse([new TextEncoder().encode(`${streamBody([{ a: 1 }])}\n`)]).events).toEqual([{ a: 1 }]);
  });

  it('reports a body that ends before ]}', () => {
    const truncated = new TextEncoder().encode(streamBody([{ a: 1 }], { close: false }));
    expect(() => parse([truncated])).toThrow();
  });

  it('reports malformed JSON', () => {
    const parser = new StreamBodyParser({ sessionId: () => {}, event: () => {} });
    expect(() => parser.write('{"sessionId":"s","events":[{"a":1},}')).toThrow();
  });

  it('reads any JSON events, in any key order and layout, however the bytes are split', () => {
    fc.assert(
      fc.property(
        fc.array(fc.jsonValue(), { maxLength: 8 }),
        fc.boolean(),
        fc.constantFrom(undefined, 2, '\t'),
        fc.array(fc.nat(), { maxLength: 20 }),
        (values, eventsFirst, indent, cuts) => {
          const document = eventsFirst
            ? { events: values, other: { x: [1, '}'] }, sessionId: 'sess_z' }
            : { sessionId: 'sess_z', n: -1.5e3, events: values };
          const body = new TextEncoder().encode(JSON.stringify(document, null, indent));
          // JSON.stringify turns -0 into 0: compare with what JSON.parse makes of the same text.
          const expected = (JSON.parse(JSON.stringify(values)) as unknown[]) ?? [];
          expect(parse(splitAt(body, cuts))).toEqual({ events: expected, sessionId: 'sess_z' });
        },
      ),
      { numRuns: 300 },
    );
  });

  it('keeps braces, brackets and escaped quotes inside strings as text', () => {
    const tricky = [{ a: 'x}]"{[\\' }, { b: ['\\"', '}'] }, 'top }', 7, null];
    const bytes = new TextEncoder().encode(JSON.stringify({ sessionId: 's', events: tricky }));
    expect(parse([...bytes].map((b) => Uint8Array.of(b))).events).toEqual(tricky);
  });

  it('reports mismatched brackets and trailing commas at once', () => {
    for (const bad of [
      '{"sessionId":"s","events":[{"a":[1}]}',
      '{"sessionId":"s","events":[1,]}',
      '{"a":1,}',
    ]) {
      const parser = new StreamBodyParser({ sessionId: () => {}, event: () => {} });
      expect(() => parser.write(bad), bad).toThrow();
    }
  });
});
