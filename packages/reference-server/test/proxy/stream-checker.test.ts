import { describe, expect, it } from 'vitest';
import type { ProtocolViolation } from '../../src/http/protocol-violation.js';
import { MAX_CHECKED_EVENT_CHARS, StreamChecker } from '../../src/proxy/stream-checker.js';

function check(chunks: Uint8Array[]) {
  const events: unknown[] = [];
  const violations: ProtocolViolation[] = [];
  const checker = new StreamChecker({
    event: (event) => events.push(event),
    violation: (violation) => violations.push(violation),
  });
  for (const chunk of chunks) checker.write(chunk);
  checker.end();
  return { events, violations, complete: checker.complete };
}

const encoder = new TextEncoder();
const BODY = `{"sessionId":"sess_é1","events":[
{"messageStart":{"role":"assistant","index":1}},
{"contentBlockDelta":{"contentBlockIndex":0,"delta":{"text":"naïve \\"quoted\\" ] } text 😀"}}},
{"contentBlockStop":{"contentBlockIndex":"0"}},
{"replyStop":{"messages":[],"stopReason":"end_turn","pendingTools":[],"heartbeatTimeoutMs":15000}}
]}
`;

describe('the stream checker', () => {
  it('finds the same events and violations whatever the chunk boundaries, even inside a UTF-8 sequence', () => {
    const bytes = encoder.encode(BODY);
    const whole = check([bytes]);
    expect(whole.complete).toBe(true);
    expect(whole.events).toHaveLength(4);
    expect(whole.violations).toEqual([
      {
        in: 'response',
        path: 'events[2].contentBlockStop.contentBlockIndex',
        expected: 'number',
        got: 'string "0"',
      },
    ]);
    for (let size = 1; size <= 7; size++) {
      const chunks: Uint8Array[] = [];
      for (let at = 0; at < bytes.length; at += size) chunks.push(bytes.subarray(at, at + size));
      expect(check(chunks)).toEqual(whole);
    }
  });

  it('reports a body that is not the stream JSON once, with where it broke', () => {
    const { violations } = check([
      encoder.encode('{"sessionId":"s","events":[{"messageStart":{]}'),
      encoder.encode('more bytes that are not checked'),
    ]);
    expect(violations).toHaveLength(1);
    expect(violations.at(-1)).toMatchObject({
      path: 'events[0]',
      expected: 'a JSON body {"sessionId": ..., "events": [...]}',
    });
    expect(violations.at(-1)?.got).toMatch(/^invalid JSON: /);
  });

  it('flags a complete stream that does not end with replyStop or an exception, and a missing sessionId', () => {
    const { violations } = check([
      encoder.encode('{"events":[{"messageStart":{"role":"assistant","index":1}}]}'),
    ]);
    expect(violations).toEqual([
      { in: 'response', path: 'sessionId', expected: 'string', got: 'nothing' },
      {
        in: 'response',
        path: 'events[0]',
        expected: 'a replyStop or an exception event last',
        got: 'a messageStart event',
      },
    ]);
  });

  it('passes an event longer than it keeps unchecked, and goes on checking the next ones', () => {
    const long = `{"contentBlockDelta":{"contentBlockIndex":0,"delta":{"text":"${'x'.repeat(MAX_CHECKED_EVENT_CHARS)}"}}}`;
    const body = `{"sessionId":"s","events":[${long},{"contentBlockStop":{"contentBlockIndex":-1}},{"replyStop":{"messages":[],"stopReason":"end_turn","pendingTools":[],"heartbeatTimeoutMs":1}}]}`;
    const { events, violations, complete } = check([encoder.encode(body)]);
    expect(complete).toBe(true);
    expect(events).toHaveLength(2);
    expect(violations.map((v) => v.path)).toEqual(['events[1].contentBlockStop.contentBlockIndex']);
  });
});
