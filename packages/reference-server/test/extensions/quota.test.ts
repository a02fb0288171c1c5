import { isHttpError, ManualClock, QuotaTracker } from '@parley/reference-server';
import { describe, expect, test } from 'vitest';

function refusal(run: () => void): { status: number; retryAfter: string | undefined; details: unknown } {
  try {
    run();
  } catch (error) {
    if (!isHttpError(error)) throw error;
    return { status: error.status, retryAfter: error.headers['retry-after'], details: error.details };
  }
  throw new Error('expected a refusal');
}

describe('quotas per product', () => {
  test('over quota is 429 quota_exceeded with Retry-After', async () => {
    const clock = new ManualClock(0);
    const quota = new QuotaTracker([{ product: 'checkout', messagesPerMinute: 2 }], clock);
    quota.admit('checkout');
    await clock.advance(10_000);
    quota.admit('checkout');
    await clock.advance(5_000);
    expect(refusal(() => quota.admit('checkout'))).toEqual({
      status: 429,
      retryAfter: '45',
      details: { product: 'checkout', messagesPerMinute: 2, retryAfterSeconds: 45 },
    });
  });

  test('reset() empties every window: a product at its limit is admitted again', () => {
    const quota = new QuotaTracker([{ product: 'checkout', messagesPerMinute: 1 }], new ManualClock(0));
    quota.admit('checkout');
    expect(refusal(() => quota.admit('checkout')).status).toBe(429);
    quota.reset();
    expect(() => quota.admit('checkout')).not.toThrow();
    expect(refusal(() => quota.admit('checkout')).status).toBe(429);
  });

  test('the window slides: a send is admitted once the oldest leaves the last minute', async () => {
    const clock = new ManualClock(0);
    const quota = new QuotaTracker([{ product: 'checkout', messagesPerMinute: 2 }], clock);
    quota.admit('checkout');
    await clock.advance(30_000);
    quota.admit('checkout');
    await clock.advance(29_999);
    expect(refusal(() => quota.admit('checkout')).retryAfter).toBe('1');
    await clock.advance(1);
    expect(() => quota.admit('checkout')).not.toThrow();
    expect(refusal(() => quota.admit('checkout')).retryAfter).toBe('30');
  });

  test('refused sends are not counted', async () => {
    const clock = new ManualClock(0);
    const quota = new QuotaTracker([{ product: 'p', messagesPerMinute: 1 }], clock);
    quota.admit('p');
    for (let i = 0; i < 5; i++) expect(() => quota.admit('p')).toThrow();
    await clock.advance(60_000);
    expect(() => quota.admit('p')).not.toThrow();
  });

  test('products are counted separately; other products and no product are not limited', () => {
    const quota = new QuotaTracker(
      [
        { product: 'a', messagesPerMinute: 1 },
        { product: 'b', messagesPerMinute: 1 },
      ],
      new ManualClock(0),
    );
    quota.admit('a');
    quota.admit('b');
    expect(() => quota.admit('a')).toThrow();
    expect(() => {
      for (let i = 0; i < 100; i++) {
        quota.admit('unlisted');
        quota.admit(undefined);
      }
    }).not.toThrow();
  });

  test('off by default', () => {
    const quota = new QuotaTracker([], new ManualClock(0));
    expect(() => {
      for (let i = 0; i < 1000; i++) quota.admit('checkout');
    }).not.toThrow();
  });

  test('rejects a limit below 1', () => {
    expect(() => new QuotaTracker([{ product: 'x', messagesPerMinute: 0 }], new ManualClock(0))).toThrow(
      />= 1/,
    );
  });
});
