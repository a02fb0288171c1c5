import { systemClock } from '@parley/reference-server';
import { afterEach, describe, expect, it, vi } from 'vitest';

afterEach(() => {
  vi.useRealTimers();
});

describe('systemClock', () => {
  it('a sleep past what one timer holds (2^31 - 1 ms) lasts that long, not 1 ms, and still aborts', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const ms = 2 ** 31 + 5_000;
    let woke = false;
    const long = systemClock.sleep(ms).then(() => {
      woke = true;
    });
    await vi.advanceTimersByTimeAsync(ms - 1);
    expect(woke).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await long;
    expect(woke).toBe(true);

    const controller = new AbortController();
    const aborted = systemClock.sleep(ms, controller.signal);
    await vi.advanceTimersByTimeAsync(2 ** 31);
    controller.abort(new Error('stop'));
    await expect(aborted).rejects.toThrow('stop');
    expect(vi.getTimerCount()).toBe(0);
  });
});
