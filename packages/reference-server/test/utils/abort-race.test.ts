import { describe, expect, it } from 'vitest';
import { abortRace } from '../../src/utils/abortable.js';
import { LazyAbortController } from '../../src/utils/lazy-abort-controller.js';

describe("abortRace: one abort listener for a reply's model events", () => {
  it('settles like each promise while the signal stays quiet', async () => {
    const controller = new LazyAbortController();
    const events = abortRace(controller);
    expect(await events.race(Promise.resolve(1))).toBe(1);
    await expect(events.race(Promise.reject(new Error('model failed')))).rejects.toThrow('model failed');
    expect(await events.race(Promise.resolve(2))).toBe(2);
    events.dispose();
  });

  it("rejects the pending promise with the signal's reason as soon as it aborts", async () => {
    const controller = new LazyAbortController();
    const events = abortRace(controller);
    const never = new Promise<number>(() => {});
    const raced = events.race(never);
    controller.abort(new Error('the session was deleted'));
    await expect(raced).rejects.toThrow('the session was deleted');
    await expect(events.race(Promise.resolve(3))).rejects.toThrow('the session was deleted');
    events.dispose();
  });

  it('a late rejection of a promise that lost the race is handled (no unhandled rejection)', async () => {
    const controller = new LazyAbortController();
    const events = abortRace(controller);
    let fail: ((error: Error) => void) | undefined;
    const late = new Promise<number>((_, reject) => {
      fail = reject;
    });
    const raced = events.race(late);
    controller.abort('stop');
    await expect(raced).rejects.toBe('stop');
    fail?.(new Error('too late'));
    await new Promise((resolve) => setImmediate(resolve));
    events.dispose();
  });

  it('after dispose an abort reaches no promise', async () => {
    const controller = new LazyAbortController();
    const events = abortRace(controller);
    const raced = events.race(new Promise<number>((resolve) => setImmediate(() => resolve(4))));
    events.dispose();
    controller.abort('ignored');
    expect(await raced).toBe(4);
  });
});

describe("LazyAbortController: a reply's abort, its AbortSignal made only when asked for", () => {
  it('aborts once, with an AbortError by default, and tells its listeners once', () => {
    const controller = new LazyAbortController();
    let told = 0;
    controller.onAbort(() => told++);
    const stop = controller.onAbort(() => told++);
    stop();
    expect(controller.aborted).toBe(false);
    controller.abort();
    controller.abort(new Error('later'));
    expect(controller.aborted).toBe(true);
    expect(controller.reason).toBeInstanceOf(DOMException);
    expect((controller.reason as DOMException).name).toBe('AbortError');
    expect(told).toBe(1);
  });

  it('a signal asked for before the abort aborts with it; one asked for after is aborted already', () => {
    const early = new LazyAbortController();
    const signal = early.signal;
    expect(early.signal).toBe(signal);
    let heard: unknown;
    signal.addEventListener('abort', () => {
      heard = signal.reason;
    });
    early.abort('deleted');
    expect(signal.aborted).toBe(true);
    expect(heard).toBe('deleted');

    const late = new LazyAbortController();
    late.abort('shutdown');
    expect(late.signal.aborted).toBe(true);
    expect(late.signal.reason).toBe('shutdown');
  });
});
