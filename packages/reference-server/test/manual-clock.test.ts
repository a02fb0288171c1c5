import { ManualClock } from '@parley/reference-server';
import { describe, expect, it } from 'vitest';

describe('ManualClock', () => {
  it('moves only when advanced and wakes due sleepers in order of their wake time', async () => {
    const clock = new ManualClock(100);
    const woke: Array<[string, number]> = [];
    const a = clock.sleep(30).then(() => woke.push(['a', clock.now()]));
    const b = clock.sleep(10).then(() => woke.push(['b', clock.now()]));
    const c = clock.sleep(50).then(() => woke.push(['c', clock.now()]));
    expect(clock.pendingSleeps).toBe(3);
    await clock.advance(40);
    await Promise.all([a, b]);
    expect(woke).toEqual([
      ['b', 110],
      ['a', 130],
    ]);
    expect(clock.now()).toBe(140);
    await clock.advance(10);
    await c;
    expect(woke.at(-1)).toEqual(['c', 150]);
  });

  it('a sleep rejects with the signal’s reason when aborted', async () => {
    const clock = new ManualClock();
    const controller = new AbortController();
    const sleeping = clock.sleep(1_000, controller.signal);
    controller.abort(new Error('stop'));
    await expect(sleeping).rejects.toThrow('stop');
    expect(clock.pendingSleeps).toBe(0);
  });

  it('code that sleeps again during an advance is woken if its new time is due', async () => {
    const clock = new ManualClock();
    const ticks: number[] = [];
    const loop = (async () => {
      for (let i = 0; i < 3; i++) {
        await clock.sleep(10);
        ticks.push(clock.now());
      }
    })();
    await clock.advance(30);
    await loop;
    expect(ticks).toEqual([10, 20, 30]);
  });
});
