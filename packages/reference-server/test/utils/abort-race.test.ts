import { describe, expect, it } from 'vitest';
import { abortRace } from '../../src/utils/abortable.js';

describe("abortRace: one abort listener for a reply's model events", () => {
  it('settles like each promise while the signal stays quiet', async () => {
    const controller = new AbortController();
    const events = abortRace(controller.signal);
    expect(await events.race(Promise.resolve(1))).toBe(1);
    await expect(events.race(Promise.reject(new Error('model failed')))).rejects.toThrow('model failed');
    expect(await events.race(Promise.resolve(2))).toBe(2);
    events.dispose();
  });

  it("rejects the pending promise with the signal's reason as soon as it aborts", async () => {
    const controller = new AbortController();
    const events = abortRace(controller.signal);
    const never = new Promise<number>(() => {});
    const raced = events.race(never);
    controller.abort(new Error('the session was deleted'));
    await expect(raced).rejects.toThrow('the session was deleted');
    await expect(events.race(Promise.resolve(3))).rejects.toThrow('the session was deleted');
    events.dispose();
  });

  it('a late rejection of a promise that lost the race is handled (no unhandled rejection)', async () => {
    const controller = new AbortController();
    const events = abortRace(controller.signal);
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
    const controller = new AbortController();
    const events = abortRace(controller.signal);
    const raced = events.race(new Promise<number>((resolve) => setImmediate(() => resolve(4))));
    events.dispose();
    controller.abort('ignored');
    expect(await raced).toBe(4);
  });
});
