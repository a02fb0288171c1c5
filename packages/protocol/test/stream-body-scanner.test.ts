// The one test suite of the stream scanner the SDK (reading a stream) and the server's proxy
// (checking one) share: framing, chunking anywhere, positions in errors, oversized events.
import { StreamBodyScanner, type StreamBodyScannerOptions } from '@parley/protocol/stream-body-scanner';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

const encoder = new TextEncoder();

/** The events of a tool_use reply, shaped like the reference server's (docs/protocol.md). */
const EVENTS: unknown[] = [
  { messageStart: { role: 'assistant', index: 1 } },
  { contentBlockDelta: { contentBlockIndex: 0, delta: { text: 'Let me check.' } } },
  { contentBlockStop: { contentBlockIndex: 0 } },
  {
    contentBlockStart: { contentBlockIndex: 1, start: { toolUse: { toolUseId: 't1', name: 'get_weather' } } },
  },
  { contentBlockDelta: { contentBlockIndex: 1, delta: { toolUse: { input: '{"city":"Paris"}' } } } },
  { messageStop: { stopReason: 'tool_use' } },
  { replyStop: { messages: [], stopReason: 'tool_use', pendingTools: [], heartbeatTimeoutMs: 15_000 } },
  { someFutureEvent: { nested: { ü: 'é€😀', list: [1, 2, { deep: true }] } } },
];

/** `{"sessionId":...,"events":[...]}`, one event per line as the server writes it. */
function streamBody(events: unknown[], options: { close?: boolean } = {}): string {
  const list = events.map((e) => JSON.stringify(e)).join(',\n');
  return `{"sessionId":"sess_1","events":[\n${list}${options.close === false ? '' : '\n]}'}`;
}

function scan(chunks: Array<Uint8Array | string>, options?: StreamBodyScannerOptions) {
  const events: unknown[] = [];
  const indexes: number[] = [];
  const fields: Record<string, unknown> = {};
  const oversized: Array<[number, number]> = [];
  const scanner = new StreamBodyScanner(
    {
      field: (key, value) => {
        fields[key] = value;
      },
      event: (value, index) => {
        events.push(value);
        indexes.push(index);
      },
      oversized: (index, chars) => oversized.push([index, chars]),
    },
    options,
  );
  for (const chunk of chunks) scanner.write(chunk);
  scanner.end();
  return { events, indexes, fields, oversized, complete: scanner.complete };
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

function syntaxError(run: () => void): SyntaxError {
  try {
    run();
  } catch (error) {
    if (error instanceof SyntaxError) return error;
    throw error;
  }
  throw new Error('no SyntaxError was thrown');
}

describe('the stream body scanner', () => {
  const bytes = encoder.encode(streamBody(EVENTS));

  it('reports the sessionId field and every event of a whole body, with its index', () => {
    const result = scan([bytes]);
    expect(result).toMatchObject({ events: EVENTS, fields: { sessionId: 'sess_1' }, complete: true });
    expect(result.indexes).toEqual(EVENTS.map((_, i) => i));
  });

  it('gives the same events however the bytes are split (even inside UTF-8 sequences)', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(), { maxLength: 40 }), (cuts) => {
        expect(scan(splitAt(bytes, cuts))).toMatchObject({ events: EVENTS, fields: { sessionId: 'sess_1' } });
      }),
      { numRuns: 300 },
    );
  });

  it('scans byte by byte', () => {
    expect(scan([...bytes].map((b) => Uint8Array.of(b))).events).toEqual(EVENTS);
  });

  it('reports each event as soon as it closes, and says when it is inside one', () => {
    const seen: unknown[] = [];
    const scanner = new StreamBodyScanner({ field: () => {}, event: (value) => seen.push(value) });
    scanner.write('{"sessionId":"s","events":[{"a":1}');
    expect(seen).toEqual([{ a: 1 }]);
    expect(scanner.openEvent).toBeUndefined();
    scanner.write(',{"b":');
    expect(seen).toHaveLength(1);
    expect(scanner.openEvent).toBe(1);
  });

  it('ignores what follows the document (a trailing newline)', () => {
    expect(scan([`${streamBody([{ a: 1 }])}\n`]).events).toEqual([{ a: 1 }]);
  });

  it('is not complete when the body ends before ]}', () => {
    expect(scan([streamBody([{ a: 1 }], { close: false })])).toMatchObject({
      events: [{ a: 1 }],
      complete: false,
    });
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
          const body = encoder.encode(JSON.stringify(document, null, indent));
          // JSON.stringify turns -0 into 0: compare with what JSON.parse makes of the same text.
          const expected = (JSON.parse(JSON.stringify(values)) as unknown[]) ?? [];
          const result = scan(splitAt(body, cuts));
          expect(result.events).toEqual(expected);
          expect(result.fields).toEqual(
            eventsFirst ? { other: { x: [1, '}'] }, sessionId: 'sess_z' } : { sessionId: 'sess_z', n: -1500 },
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  it('keeps braces, brackets and escaped quotes inside strings as text', () => {
    const tricky = [{ a: 'x}]"{[\\' }, { b: ['\\"', '}'] }, 'top }', 7, null];
    const body = encoder.encode(JSON.stringify({ sessionId: 's', events: tricky }));
    expect(scan([...body].map((b) => Uint8Array.of(b))).events).toEqual(tricky);
  });

  it('reports events that is not an array as a field', () => {
    expect(scan(['{"sessionId":"s","events":{"not":"a list"}}'])).toMatchObject({
      events: [],
      fields: { sessionId: 's', events: { not: 'a list' } },
      complete: true,
    });
  });

  it('names the position of an unexpected character: mismatched brackets, trailing commas', () => {
    for (const [bad, position] of [
      ['{"sessionId":"s","events":[{"a":[1}]}', 34],
      ['{"sessionId":"s","events":[1,]}', 29],
      ['{"a":1,}', 7],
      ['[]', 0],
    ] as const) {
      const error = syntaxError(() => scan([bad]));
      expect(error.message, bad).toBe(
        `Unexpected ${JSON.stringify(bad[position])} at position ${position} of the stream body`,
      );
    }
  });

  it('names the position of a value JSON.parse refuses, however the chunks fall', () => {
    const body = '{"sessionId":"s","events":[{"a":1},{"b":tru}]}';
    const position = body.indexOf('{"b"');
    for (const chunks of [[body], [body.slice(0, 30), body.slice(30)], [...body]]) {
      const error = syntaxError(() => scan(chunks));
      expect(error.message).toMatch(
        new RegExp(`\\(in the value at position ${position} of the stream body\\)$`),
      );
    }
  });

  it('skips an event longer than maxValueChars, reports its index and length, and goes on', () => {
    const long = { text: 'x'.repeat(100) };
    const body = streamBody([{ a: 1 }, long, { b: 2 }]);
    for (const chunks of [[body], [...body]]) {
      const result = scan(chunks, { maxValueChars: 50 });
      expect(result).toMatchObject({ events: [{ a: 1 }, { b: 2 }], indexes: [0, 2], complete: true });
      expect(result.oversized).toEqual([[1, JSON.stringify(long).length]]);
    }
  });

  it('counts a skipped event even without an oversized handler: the next event keeps its index', () => {
    const indexes: number[] = [];
    const scanner = new StreamBodyScanner(
      { field: () => {}, event: (_, index) => indexes.push(index) },
      { maxValueChars: 10 },
    );
    scanner.write(streamBody([{ a: 1 }, { long: 'x'.repeat(20) }, { b: 2 }]));
    expect(indexes).toEqual([0, 2]);
  });

  it('keeps every event without maxValueChars', () => {
    const long = { text: 'x'.repeat(200_000) };
    expect(scan([streamBody([long])]).events).toEqual([long]);
  });
});
