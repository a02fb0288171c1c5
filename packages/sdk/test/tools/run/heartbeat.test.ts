import { defaults, ToolCallLostError } from '@parley/sdk';
import { Heartbeat, heartbeatIntervalMs, jitteredIntervalMs, startHeartbeat } from '@parley/sdk/tools';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import {
  apiError,
  connectionError,
  deferred,
  FakeTransport,
  hangUntilAborted,
} from '../helpers/fake-transport.js';

const ids = { sessionId: 'sess_1', requestId: 'tooluse_1' };
/** No jitter: every wait is exactly one interval. */
const noJitter = () => 0;

beforeEach(() => {
  vi.useFakeTimers({ now: 0 });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('interval', () => {
  test('is a third of the server timeout, clamped to 250 ms..5 s', () => {
    expect(heartbeatIntervalMs(3_000)).toBe(1_000);
    expect(heartbeatIntervalMs(300)).toBe(defaults.heartbeat.minIntervalMs);
    expect(heartbeatIntervalMs(15_000)).toBe(defaults.heartbeat.maxIntervalMs);
    expect(heartbeatIntervalMs(600_000)).toBe(defaults.heartbeat.maxIntervalMs);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000_000 }), (timeout) => {
        const interval = heartbeatIntervalMs(timeout);
        return interval >= 250 && interval <= 5_000 && (interval <= timeout / 3 + 1 || interval === 250);
      }),
    );
  });

  test('is 1 s when the server timeout is unknown or nonsense', () => {
    expect(heartbeatIntervalMs(undefined)).toBe(defaults.heartbeat.intervalMs);
    expect(heartbeatIntervalMs(0)).toBe(1_000);
    expect(heartbeatIntervalMs(-5)).toBe(1_000);
    expect(heartbeatIntervalMs(Number.NaN)).toBe(1_000);
    expect(heartbeatIntervalMs(Number.POSITIVE_INFINITY)).toBe(1_000);
  });

  test('jitter only shortens the wait, by at most 20 %', () => {
    expect(jitteredIntervalMs(1_000, () => 0)).toBe(1_000);
    expect(jitteredIntervalMs(1_000, () => 0.5)).toBe(900);
    expect(jitteredIntervalMs(1_000, () => 0.999_999)).toBe(800);
    fc.assert(
      fc.property(
        fc.integer({ min: 250, max: 5_000 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (interval, r) => {
          const wait = jitteredIntervalMs(interval, () => r);
          return wait <= interval && wait >= Math.floor(interval * 0.8);
        },
      ),
    );
  });

  test('an out-of-range random source cannot lengthen or zero the wait', () => {
    expect(jitteredIntervalMs(1_000, () => -3)).toBe(1_000);
    expect(jitteredIntervalMs(1_000, () => 7)).toBe(800);
  });
});

describe('Heartbeat', () => {
  test('sends the first beat at once, before any time passes', () => {
    const transport = new FakeTransport();
    startHeartbeat(transport, { ...ids, heartbeatTimeoutMs: 15_000 });
    expect(transport.of('heartbeat')).toHaveLength(1);
    expect(transport.calls[0]).toMatchObject({ sessionId: 'sess_1', requestId: 'tooluse_1', at: 0 });
  });

  test('beats once per interval after that (timeout 3 s → every 1 s)', async () => {
    const transport = new FakeTransport();
    const heartbeat = startHeartbeat(transport, { ...ids, heartbeatTimeoutMs: 3_000, random: noJitter });
    await vi.advanceTimersByTimeAsync(3_500);
    expect(transport.of('heartbeat').map((c) => c.at)).toEqual([0, 1_000, 2_000, 3_000]);
    await heartbeat.stop();
  });

  test('jitter shortens each wait (random 0.5 → 0.9 × interval)', async () => {
    const transport = new FakeTransport();
    const heartbeat = startHeartbeat(transport, { ...ids, heartbeatTimeoutMs: 3_000, random: () => 0.5 });
    await vi.advanceTimersByTimeAsync(2_000);
    expect(transport.of('heartbeat').map((c) => c.at)).toEqual([0, 900, 1_800]);
    await heartbeat.stop();
  });

  test('beats every 1 s when the server timeout is unknown', async () => {
    const transport = new FakeTransport();
    const heartbeat = startHeartbeat(transport, { ...ids, random: noJitter });
    await vi.advanceTimersByTimeAsync(2_000);
    expect(transport.of('heartbeat').map((c) => c.at)).toEqual([0, 1_000, 2_000]);
    await heartbeat.stop();
  });

  test('a hanging beat is waited for until the lease is at risk, then the next goes out beside it in time to land; at most two are in flight', async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    const transport = new FakeTransport(async (call) => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      try {
        await hangUntilAborted(call);
      } finally {
        inFlight--;
      }
    });
    const heartbeat = startHeartbeat(transport, { ...ids, heartbeatTimeoutMs: 3_000, random: noJitter });
    await vi.advanceTimersByTimeAsync(1_999);
    // Due at 1 s, but the first beat is still in flight and the lease (to 3 s) not yet at risk.
    expect(transport.of('heartbeat').map((c) => c.at)).toEqual([0]);
    await vi.advanceTimersByTimeAsync(1);
    // One interval before the lease ends: a second beat beside the first.
    expect(transport.of('heartbeat').map((c) => c.at)).toEqual([0, 2_000]);
    expect(maxInFlight).toBe(2);
    await vi.advanceTimersByTimeAsync(1_000);
    // The lease ran out with both still out: neither is cut off, and no third goes out.
    expect(transport.calls[0]?.options?.signal?.aborted).toBe(false);
    expect(transport.of('heartbeat').map((c) => c.at)).toEqual([0, 2_000]);
    await vi.advanceTimersByTimeAsync(1_000);
    // The local timeout (lease + 1 s) ends the call and cancels both.
    expect(heartbeat.endReason).toBe('TIMED_OUT');
    expect(transport.calls.map((c) => c.options?.signal?.aborted)).toEqual([true, true]);
    await vi.runAllTimersAsync();
  });

  test('a beat answered 2.5 s late does not delay the next one: the lease never lapses', async () => {
    let slow = false;
    const transport = new FakeTransport((call) => {
      if (!slow) return undefined;
      slow = false;
      // A stalled answer: this beat takes 2.5 s, and then succeeds.
      return new Promise<void>((resolve) => setTimeout(resolve, 2_500)).then(() =>
        call.options?.signal?.throwIfAborted(),
      );
    });
    const onBeatError = vi.fn();
    const heartbeat = startHeartbeat(transport, {
      ...ids,
      heartbeatTimeoutMs: 3_000,
      random: noJitter,
      onBeatError,
    });
    await vi.advanceTimersByTimeAsync(0); // the claim at 0 succeeds: the lease runs to 3 s
    slow = true;
    await vi.advanceTimersByTimeAsync(3_000);
    // The beat at 2 s went out beside the slow one, one interval before the lease's end: the lease
    // ran to 5 s, and the next waits for the slow one until one interval before that.
    expect(transport.of('heartbeat').map((c) => c.at)).toEqual([0, 1_000, 2_000]);
    // A beat's own deadline is the local timeout (lease + 1 s), not the lease's end.
    expect(transport.calls[1]?.options).toMatchObject({ timeoutMs: 4_000, maxRetries: 0 });
    await vi.advanceTimersByTimeAsync(500);
    // The slow one answered at 3.5 s and counts; the beat due at 3 s waits for the rescue point
    // (one interval before the lease that the beat at 2 s started ends), not a beat at once.
    expect(transport.of('heartbeat').map((c) => c.at)).toEqual([0, 1_000, 2_000]);
    await vi.advanceTimersByTimeAsync(500);
    expect(transport.of('heartbeat').map((c) => c.at)).toEqual([0, 1_000, 2_000, 4_000]);
    expect(onBeatError).not.toHaveBeenCalled();
    expect(heartbeat.stats).toEqual({ successes: 4, failures: 0 });
    expect(heartbeat.endReason).toBeUndefined();
    const stopping = heartbeat.stop();
    await vi.runAllTimersAsync();
    await stopping;
  });

  test('a beat answered after the next was due moves the next to the rescue point, not to at once (a busy process beats less)', async () => {
    let slowUntil = 1_500;
    // The claim's answer comes at 1.5 s, after the next beat was due (1 s): a slow network, or an
    // event loop too busy to read it.
    const transport = new FakeTransport(async () => {
      const wait = slowUntil - Date.now();
      slowUntil = 0;
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    });
    const heartbeat = startHeartbeat(transport, { ...ids, heartbeatTimeoutMs: 3_000, random: noJitter });
    await vi.advanceTimersByTimeAsync(1_999);
    // Renewed from 0 (the claim's send) to 3 s: the next goes out one interval before that, at 2 s.
    expect(transport.of('heartbeat').map((c) => c.at)).toEqual([0]);
    await vi.advanceTimersByTimeAsync(1);
    expect(transport.of('heartbeat').map((c) => c.at)).toEqual([0, 2_000]);
    // Answered at once: back to one beat an interval after the last was sent.
    await vi.advanceTimersByTimeAsync(1_000);
    expect(transport.of('heartbeat').map((c) => c.at)).toEqual([0, 2_000, 3_000]);
    expect(heartbeat.stats).toEqual({ successes: 3, failures: 0 });
    const stopping = heartbeat.stop();
    await vi.runAllTimersAsync();
    await stopping;
  });

  test('a beat still in flight when its lease runs out is not cut off: its late answer still holds the call', async () => {
    let n = 0;
    const transport = new FakeTransport((call) => {
      n++;
      // The claim answers at once; the beat at 1 s answers at 3.5 s (after its lease ran out at 3 s);
      // the one beside it at 2 s never does.
      if (n === 1) return undefined;
      if (n === 2) return new Promise<void>((resolve) => setTimeout(resolve, 2_500));
      return n === 3 ? hangUntilAborted(call) : undefined;
    });
    const onBeatError = vi.fn();
    const heartbeat = startHeartbeat(transport, {
      ...ids,
      heartbeatTimeoutMs: 3_000,
      random: noJitter,
      onBeatError,
    });
    await vi.advanceTimersByTimeAsync(3_000);
    expect(transport.calls[1]?.options?.signal?.aborted).toBe(false);
    expect(transport.of('heartbeat').map((c) => c.at)).toEqual([0, 1_000, 2_000]);
    await vi.advanceTimersByTimeAsync(1_000);
    // Cut off at 3 s, the call would be TIMED_OUT at 4 s; its answer at 3.5 s renewed it instead.
    expect(heartbeat.endReason).toBeUndefined();
    expect(onBeatError).not.toHaveBeenCalled();
    expect(transport.of('heartbeat').map((c) => c.at)).toEqual([0, 1_000, 2_000, 3_500]);
    const stopping = heartbeat.stop();
    await vi.runAllTimersAsync();
    await stopping;
    expect(heartbeat.endReason).toBe('STOPPED');
  });

  test('a transport that ignores the signal still cannot hold the timer past the beat deadline', async () => {
    const transport = new FakeTransport(() => new Promise<void>(() => {}));
    const heartbeat = startHeartbeat(transport, { ...ids, heartbeatTimeoutMs: 3_000, random: noJitter });
    await vi.advanceTimersByTimeAsync(1_500);
    // stop() waits for the beat in flight, but no longer than its deadline (the lease's end).
    const stopping = heartbeat.stop();
    await vi.advanceTimersByTimeAsync(1_500);
    await stopping;
    expect(heartbeat.endReason).toBe('STOPPED');
    expect(transport.of('heartbeat').map((c) => c.at)).toEqual([0]);
  });

  test('stop() waits for a beat in flight until the lease ends, then leaves it to settle uncancelled', async () => {
    const transport = new FakeTransport(() => new Promise<void>((resolve) => setTimeout(resolve, 3_500)));
    const onBeatError = vi.fn();
    const heartbeat = startHeartbeat(transport, {
      ...ids,
      heartbeatTimeoutMs: 3_000,
      random: noJitter,
      onBeatError,
    });
    await vi.advanceTimersByTimeAsync(500);
    let stopped = false;
    const stopping = heartbeat.stop().then(() => {
      stopped = true;
    });
    await vi.advanceTimersByTimeAsync(2_499);
    expect(stopped).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    // The lease (from 0) ended at 3 s: stop() resolves, and the beat is not cancelled.
    expect(stopped).toBe(true);
    expect(heartbeat.endReason).toBe('STOPPED');
    expect(transport.calls[0]?.options?.signal?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1_000);
    await stopping;
    expect(transport.of('heartbeat').map((c) => c.at)).toEqual([0]);
    expect(onBeatError).not.toHaveBeenCalled();
  });

  test('a beat whose deadline fired on time says only that it timed out', async () => {
    // The first beat never answers; the one beside it (at 1 s) holds the call.
    const transport = new FakeTransport((call) => (call.at === 0 ? hangUntilAborted(call) : undefined));
    const onBeatError = vi.fn();
    const heartbeat = startHeartbeat(transport, {
      ...ids,
      heartbeatTimeoutMs: 1_500,
      random: noJitter,
      onBeatError,
    });
    await vi.advanceTimersByTimeAsync(2_500);
    expect(onBeatError.mock.calls[0]?.[0]).toMatchObject({ message: 'Heartbeat timed out after 2500 ms' });
    heartbeat.stop();
    await vi.runAllTimersAsync();
  });

  test('a beat whose deadline fired more than an interval late says the event loop was blocked', async () => {
    const transport = new FakeTransport((call) => (call.at === 0 ? hangUntilAborted(call) : undefined));
    const onBeatError = vi.fn();
    const heartbeat = startHeartbeat(transport, {
      ...ids,
      heartbeatTimeoutMs: 1_500,
      random: noJitter,
      onBeatError,
    });
    // A blocked event loop: the clock moves on 4 s while no timer can fire.
    vi.setSystemTime(Date.now() + 4_000);
    await vi.advanceTimersByTimeAsync(2_500);
    const error = onBeatError.mock.calls[0]?.[0] as Error | undefined;
    expect(error?.name).toBe('APITimeoutError');
    expect(error?.message).toBe(
      'Heartbeat timed out after 2500 ms, but its timer fired 4000 ms late: the event loop was blocked ' +
        '(synchronous work on the main thread), so no beat could go out. Run CPU-bound tool handlers in a ' +
        'worker (workerHandler, see docs/tool-workers.md) or let them await between chunks of work',
    );
    heartbeat.stop();
    await vi.runAllTimersAsync();
  });

  test('callbacks that throw do not stop the timer or count a good beat as failed', async () => {
    let failing = false;
    const transport = new FakeTransport(() => (failing ? Promise.reject(apiError(503)) : undefined));
    const heartbeat = startHeartbeat(transport, {
      ...ids,
      heartbeatTimeoutMs: 3_000,
      random: noJitter,
      onBeat: () => {
        throw new Error('broken progress display');
      },
      onBeatError: () => {
        throw new Error('broken logger');
      },
    });
    await vi.advanceTimersByTimeAsync(1_000);
    failing = true;
    await vi.advanceTimersByTimeAsync(1_000);
    expect(transport.of('heartbeat')).toHaveLength(3);
    expect(heartbeat.stats).toMatchObject({ successes: 2, failures: 1 });
    await expect(heartbeat.stop()).resolves.toBeUndefined();
    expect(heartbeat.endReason).toBe('STOPPED');
  });

  test('409 stops the timer and aborts `lost` with ToolCallLostError ABANDONED', async () => {
    const transport = new FakeTransport();
    const heartbeat = startHeartbeat(transport, { ...ids, heartbeatTimeoutMs: 3_000, random: noJitter });
    transport.behaviour = () => Promise.reject(apiError(409, 'tool_call_terminal'));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(heartbeat.endReason).toBe('ABANDONED');
    expect(heartbeat.lost.aborted).toBe(true);
    const reason = heartbeat.lost.reason;
    expect(reason instanceof ToolCallLostError).toBe(true);
    expect(reason).toMatchObject({ reason: 'ABANDONED', sessionId: 'sess_1', requestId: 'tooluse_1' });
    expect(reason.cause).toMatchObject({ status: 409 });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(transport.of('heartbeat')).toHaveLength(2);
  });

  test('404 stops the timer and aborts `lost` with ToolCallLostError NOT_FOUND', async () => {
    const transport = new FakeTransport(() => Promise.reject(apiError(404, 'tool_call_not_found')));
    const heartbeat = startHeartbeat(transport, { ...ids, heartbeatTimeoutMs: 3_000 });
    await vi.advanceTimersByTimeAsync(0);
    expect(heartbeat.endReason).toBe('NOT_FOUND');
    expect(heartbeat.lostError).toMatchObject({ name: 'ToolCallLostError', reason: 'NOT_FOUND' });
    expect(heartbeat.lost.reason).toBe(heartbeat.lostError);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(transport.of('heartbeat')).toHaveLength(1);
  });

  test('network errors and 5xx keep it ticking and are reported to onBeatError', async () => {
    const errors = [connectionError(), apiError(503), apiError(500)];
    const transport = new FakeTransport(() => {
      const next = errors.shift();
      return next ? Promise.reject(next) : undefined;
    });
    const onBeatError = vi.fn();
    const heartbeat = startHeartbeat(transport, {
      ...ids,
      heartbeatTimeoutMs: 3_000,
      random: noJitter,
      onBeatError,
    });
    await vi.advanceTimersByTimeAsync(3_000);
    expect(transport.of('heartbeat')).toHaveLength(4);
    expect(onBeatError).toHaveBeenCalledTimes(3);
    expect(heartbeat.endReason).toBeUndefined();
    expect(heartbeat.stats).toEqual({ successes: 1, failures: 3 });
    await heartbeat.stop();
    expect(heartbeat.endReason).toBe('STOPPED');
  });

  test('gives up locally with TIMED_OUT when no beat succeeds for the server timeout plus the buffer', async () => {
    const transport = new FakeTransport(() => Promise.reject(apiError(503)));
    const heartbeat = startHeartbeat(transport, { ...ids, heartbeatTimeoutMs: 3_000, random: noJitter });
    expect(heartbeat.localTimeoutMs).toBe(3_000 + defaults.heartbeat.localTimeoutBufferMs);
    await vi.advanceTimersByTimeAsync(3_999);
    expect(heartbeat.lost.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(heartbeat.endReason).toBe('TIMED_OUT');
    expect(heartbeat.lost.reason).toMatchObject({ name: 'ToolCallLostError', reason: 'TIMED_OUT' });
    const beats = transport.of('heartbeat').length;
    await vi.advanceTimersByTimeAsync(10_000);
    expect(transport.of('heartbeat')).toHaveLength(beats);
  });

  test('the local timeout counts from the last successful beat', async () => {
    let ok = true;
    const transport = new FakeTransport(() => (ok ? undefined : Promise.reject(connectionError())));
    const heartbeat = startHeartbeat(transport, { ...ids, heartbeatTimeoutMs: 3_000, random: noJitter });
    await vi.advanceTimersByTimeAsync(2_000); // beats at 0, 1000, 2000 succeed
    ok = false;
    await vi.advanceTimersByTimeAsync(3_999); // up to 5999: 2000 + 4000 not reached
    expect(heartbeat.lost.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(heartbeat.endReason).toBe('TIMED_OUT');
  });

  test('the local timeout assumes a 3 s lease (the longest 1 s beats defend) when the server timeout is unknown', () => {
    const heartbeat = new Heartbeat(new FakeTransport(), ids);
    expect(heartbeat.localTimeoutMs).toBe(3_000 + defaults.heartbeat.localTimeoutBufferMs);
  });

  test('stop() resolves only after the beat in flight settled, and no beat follows', async () => {
    const beat = deferred();
    const transport = new FakeTransport(() => beat.promise);
    const heartbeat = startHeartbeat(transport, { ...ids, heartbeatTimeoutMs: 3_000 });
    let stopped = false;
    const stopping = heartbeat.stop().then(() => {
      stopped = true;
    });
    await vi.advanceTimersByTimeAsync(500);
    expect(stopped).toBe(false);
    beat.resolve();
    await stopping;
    expect(transport.log).toEqual(['heartbeat:start', 'heartbeat:end']);
    expect(heartbeat.endReason).toBe('STOPPED');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(transport.of('heartbeat')).toHaveLength(1);
  });

  test('a 409 brought back by the beat in flight during stop() still counts as lost', async () => {
    const beat = deferred();
    const transport = new FakeTransport(() => beat.promise);
    const heartbeat = startHeartbeat(transport, { ...ids, heartbeatTimeoutMs: 3_000 });
    const stopping = heartbeat.stop();
    beat.reject(apiError(409));
    await stopping;
    expect(heartbeat.endReason).toBe('ABANDONED');
    expect(heartbeat.lost.aborted).toBe(true);
  });

  test('the end reason is recorded once', async () => {
    const transport = new FakeTransport(() => Promise.reject(apiError(404)));
    const heartbeat = startHeartbeat(transport, { ...ids, heartbeatTimeoutMs: 3_000 });
    await vi.advanceTimersByTimeAsync(0);
    await heartbeat.stop();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(heartbeat.endReason).toBe('NOT_FOUND');
    expect(heartbeat.lost.reason).toMatchObject({ reason: 'NOT_FOUND' });
  });

  test("the owner's signal ends it with ABORTED, cancels the beat in flight, and is not a lost call", async () => {
    const transport = new FakeTransport(hangUntilAborted);
    const controller = new AbortController();
    const heartbeat = startHeartbeat(transport, {
      ...ids,
      heartbeatTimeoutMs: 3_000,
      signal: controller.signal,
    });
    controller.abort(new Error('user gave up'));
    expect(heartbeat.endReason).toBe('ABORTED');
    expect(transport.calls[0]?.options?.signal?.aborted).toBe(true);
    await heartbeat.stop();
    expect(heartbeat.lost.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(transport.of('heartbeat')).toHaveLength(1);
  });

  test('an already aborted signal sends no beat at all', () => {
    const transport = new FakeTransport();
    const heartbeat = startHeartbeat(transport, { ...ids, signal: AbortSignal.abort() });
    expect(transport.calls).toHaveLength(0);
    expect(heartbeat.endReason).toBe('ABORTED');
  });
});

describe('Heartbeat with heldSince (the server leased the call to this token then: a send picked it up)', () => {
  test('the call is held from start(): claimed settles held with no beat, and no beat goes out at once', async () => {
    const transport = new FakeTransport();
    const heartbeat = startHeartbeat(transport, { ...ids, heartbeatTimeoutMs: 3_000, heldSince: 0 });
    await expect(heartbeat.claimed).resolves.toEqual({ held: true, lease: undefined });
    expect(transport.calls).toEqual([]);
    await heartbeat.stop();
  });

  test('the first beat is due one jittered interval after heldSince, then one every interval', async () => {
    const transport = new FakeTransport();
    // The reply arrived 200 ms after the send that picked the call up.
    const heartbeat = startHeartbeat(transport, {
      ...ids,
      heartbeatTimeoutMs: 3_000,
      random: noJitter,
      heldSince: Date.now() - 200,
    });
    await vi.advanceTimersByTimeAsync(799);
    expect(transport.calls).toEqual([]);
    await vi.advanceTimersByTimeAsync(1_001);
    expect(transport.of('heartbeat').map((c) => c.at)).toEqual([800, 1_800]);
    await heartbeat.stop();
    const jittered = new FakeTransport();
    const other = startHeartbeat(jittered, {
      ...ids,
      heartbeatTimeoutMs: 3_000,
      random: () => 0.5,
      heldSince: Date.now(),
    });
    await vi.advanceTimersByTimeAsync(900);
    expect(jittered.of('heartbeat').map((c) => c.at - 1_800)).toEqual([900]);
    await other.stop();
  });

  test('a heldSince more than an interval ago: the first beat goes at once', () => {
    const transport = new FakeTransport();
    startHeartbeat(transport, { ...ids, heartbeatTimeoutMs: 3_000, random: noJitter, heldSince: -1_500 });
    expect(transport.of('heartbeat').map((c) => c.at)).toEqual([0]);
  });

  test("the lease counts from heldSince: stop() waits for a beat in flight until that lease's end, not one counted from start()", async () => {
    const transport = new FakeTransport(hangUntilAborted);
    const heartbeat = startHeartbeat(transport, {
      ...ids,
      heartbeatTimeoutMs: 3_000,
      random: noJitter,
      heldSince: -200,
    });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(transport.of('heartbeat').map((c) => c.at)).toEqual([800]);
    let stopped = false;
    void heartbeat.stop().then(() => {
      stopped = true;
    });
    // The lease from heldSince ends at 2.8 s (from start() it would end at 3 s).
    await vi.advanceTimersByTimeAsync(1_799);
    expect(stopped).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(stopped).toBe(true);
    await vi.runAllTimersAsync();
  });

  test('the local timeout still counts from start(), not from heldSince: a reply slower than the lease is not given up at once', async () => {
    const transport = new FakeTransport(hangUntilAborted);
    const heartbeat = startHeartbeat(transport, { ...ids, heartbeatTimeoutMs: 3_000, heldSince: -5_000 });
    // The lease + 1 s from start().
    await vi.advanceTimersByTimeAsync(3_999);
    expect(heartbeat.endReason).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(heartbeat.endReason).toBe('TIMED_OUT');
  });

  test('a heldSince later than start() is not trusted: the first beat goes at once and claims the call', async () => {
    const transport = new FakeTransport();
    const heartbeat = startHeartbeat(transport, { ...ids, heartbeatTimeoutMs: 3_000, heldSince: 500 });
    expect(transport.of('heartbeat').map((c) => c.at)).toEqual([0]);
    await expect(heartbeat.claimed).resolves.toMatchObject({ held: true });
    await heartbeat.stop();
  });

  test('a heldSince that is not a finite number is a RangeError naming it', () => {
    const transport = new FakeTransport();
    expect(() => new Heartbeat(transport, { ...ids, heldSince: Number.NaN })).toThrow(
      new RangeError('new Heartbeat(): heldSince must be a Date.now() time, got NaN'),
    );
  });
});
