import { ManualClock } from '@parley/reference-server';
import { describe, expect, it } from 'vitest';
import { runCrashDemo } from '../src/crash-demo.js';

describe('crash-recovery example', () => {
  it('a worker killed mid-call is replaced by one that re-attaches: one question, one booking, the answer', {
    timeout: 90_000,
  }, async () => {
    // The server's clock is moved past the dead worker's lease instead of waiting it out.
    const clock = new ManualClock(Date.now());
    let printed = '';
    const result = await runCrashDemo({
      print: (text) => (printed += text),
      leaseMs: 3_000,
      clock: { clock, leaseRunsOut: (ms) => clock.advance(ms) },
    });
    expect(result.answer).toBe('Your flight to Oslo is booked.');
    expect(result.userMessages).toBe(1);
    expect(result.lines.filter((l) => l.type === 'booking').map((l) => l.attempt)).toEqual([1, 2]);
    expect(result.references).toHaveLength(1);
    expect(printed).toContain('worker 1: killed with SIGKILL in the middle of the call');
    expect(printed).toContain('server: the call is PROCESSING');
    expect(printed).toContain('worker 2: done: claimed 1, held elsewhere 0, completed 0');
  });
});
