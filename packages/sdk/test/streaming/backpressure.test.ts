import { defaults, Parley } from '@parley/sdk';
import { describe, expect, it } from 'vitest';

const EVENTS_PER_CHUNK = 100;
const encoder = new TextEncoder();

/**
 * A streamed body made on demand, one chunk of {@link EVENTS_PER_CHUNK} text deltas per pull, so
 * the test itself never holds the body: `pulled` counts the events the SDK has taken from it.
 */
function lazyBody(events: number) {
  const counter = { pulled: 0 };
  let started = false;
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (!started) {
          started = true;
          controller.enqueue(
            encoder.encode(
              '{"sessionId":"sess_bp","events":[{"messageStart":{"role":"assistant","index":1}}',
            ),
          );
          return;
        }
        if (counter.pulled >= events) {
          const stop = { messages: [], stopReason: 'end_turn', pendingTools: [], heartbeatTimeoutMs: 15000 };
          controller.enqueue(
            encoder.encode(
              `,{"messageStop":{"stopReason":"end_turn"}},{"replyStop":${JSON.stringify(stop)}}]}`,
            ),
          );
          controller.close();
          return;
        }
        let text = '';
        const count = Math.min(EVENTS_PER_CHUNK, events - counter.pulled);
        for (let i = 0; i < count; i++) {
          text += `,{"contentBlockDelta":{"contentBlockIndex":0,"delta":{"text":"w${counter.pulled + i} "}}}`;
        }
        counter.pulled += count;
        controller.enqueue(encoder.encode(text));
      },
    },
    // The body holds no chunk of its own beyond the one being read: what is pulled is what the SDK asked for.
    { highWaterMark: 0 },
  );
  return { counter, response: new Response(stream, { headers: { 'x-request-id': 'req_bp' } }) };
}

function client(response: Response): Parley {
  return new Parley({ baseUrl: 'http://parley.test', token: 't', fetch: async () => response });
}

/** Lets the reader run as far as it may: several turns of the event loop, each draining microtasks. */
async function idle(turns = 20): Promise<void> {
  for (let i = 0; i < turns; i++) await new Promise((resolve) => setImmediate(resolve));
}

describe('backpressure', () => {
  it('with 1M events and a slow for-await loop, the SDK never holds more than the high-water mark plus one chunk', async () => {
    const TOTAL = 1_000_000;
    const { counter, response } = lazyBody(TOTAL);
    let consumed = 0;
    let mostAhead = 0;
    for await (const event of client(response).messages.stream('sess_bp', {})) {
      if (event.type === 'contentBlockDelta') consumed++;
      mostAhead = Math.max(mostAhead, counter.pulled - consumed);
      // The consumer is slow: every 5 000 events it lets the event loop turn many times, time in
      // which a reader without backpressure would pull the rest of the body.
      if (consumed % 5_000 === 0) await idle();
    }
    expect(consumed).toBe(TOTAL);
    expect(mostAhead).toBeLessThanOrEqual(defaults.stream.highWaterMark + EVENTS_PER_CHUNK);
    // The bound is not met trivially: the reader did run ahead up to the mark.
    expect(mostAhead).toBeGreaterThanOrEqual(defaults.stream.highWaterMark);
  }, 120_000);

  it('a loop that stops reading for a while stops the body at the high-water mark, and reading resumes below the low-water mark', async () => {
    const { counter, response } = lazyBody(50_000);
    const iterator = client(response).messages.stream('sess_bp', {})[Symbol.asyncIterator]();
    await iterator.next();
    await idle(50);
    const paused = counter.pulled;
    expect(paused).toBeGreaterThanOrEqual(defaults.stream.highWaterMark);
    expect(paused).toBeLessThanOrEqual(defaults.stream.highWaterMark + EVENTS_PER_CHUNK);
    await idle(50);
    expect(counter.pulled).toBe(paused);

    // The loop holds `paused` deltas. One above the low-water mark, the reader still waits ...
    for (let i = 0; i < paused - defaults.stream.lowWaterMark - 1; i++) await iterator.next();
    await idle();
    expect(counter.pulled).toBe(paused);
    // ... and at the mark it goes on.
    await iterator.next();
    await idle();
    expect(counter.pulled).toBeGreaterThan(paused);
    await iterator.return?.();
  });

  it('listeners and finalReply() without a loop read at full speed (nothing is buffered for them)', async () => {
    const { counter, response } = lazyBody(20_000);
    let texts = 0;
    const stream = client(response).messages.stream('sess_bp', {});
    stream.on('text', () => texts++);
    await stream.finalReply();
    expect(texts).toBe(20_000);
    expect(counter.pulled).toBe(20_000);
  });
});
