import { HeartbeatRequestSchema } from '@parley/protocol';
import { describe, expect, it } from 'vitest';

describe('heartbeat request', () => {
  it('the heartbeat timestamp is a non-negative integer of milliseconds', () => {
    for (const heartbeat of [0, 1_700_000_000_000, Number.MAX_SAFE_INTEGER]) {
      expect(HeartbeatRequestSchema.safeParse({ state: 'PROCESSING', heartbeat }).success).toBe(true);
      expect(HeartbeatRequestSchema.safeParse({ state: 'ERROR', error: 'x', heartbeat }).success).toBe(true);
    }
    expect(HeartbeatRequestSchema.safeParse({ state: 'ERROR', error: 'no timestamp' }).success).toBe(true);
  });

  it.each([-5, 1.5, -0.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53, '1700000000000', null])(
    'a heartbeat timestamp of %s is refused, naming the field and the rule',
    (heartbeat) => {
      for (const body of [
        { state: 'PROCESSING', heartbeat },
        { state: 'ERROR', error: 'failed', heartbeat },
      ]) {
        const result = HeartbeatRequestSchema.safeParse(body);
        expect(result.success).toBe(false);
        expect(result.error?.issues[0]?.path).toEqual(['heartbeat']);
        expect(result.error?.issues[0]?.message).toMatch(/non-negative integer.*milliseconds/);
      }
    },
  );
});
