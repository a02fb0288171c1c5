// The worker process: runs the tool loop of one session. Started with `--send "<message>"` it sends
// the user's message; started with `--resume` it re-attaches to the turn a dead worker left open.
// It prints what it does as JSON lines on stdout (written synchronously, so the last line before a
// SIGKILL is never lost).
import { writeSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { defineTool, Parley } from '@parley/sdk';
import { z } from 'zod';

export type WorkerLine =
  | { type: 'booking'; requestId: string; attempt: number; to: string }
  | { type: 'booked'; requestId: string; reference: string }
  | {
      type: 'done';
      status: string;
      answer: string;
      claimed: number;
      heldElsewhere: number;
      completed: number;
    };

const { values } = parseArgs({
  options: {
    'base-url': { type: 'string' },
    session: { type: 'string' },
    send: { type: 'string' },
    resume: { type: 'boolean', default: false },
    /** The tool takes a minute: long enough to be killed in the middle of it. */
    slow: { type: 'boolean', default: false },
    'lease-ms': { type: 'string' },
  },
});

function print(line: WorkerLine): void {
  writeSync(1, `${JSON.stringify(line)}\n`);
}

const bookFlight = defineTool({
  name: 'book_flight',
  description: 'Books a flight to a city',
  input: z.object({ to: z.string() }),
  output: z.object({ reference: z.string() }),
  async run({ to }, { requestId, attempt, signal }) {
    print({ type: 'booking', requestId, attempt, to });
    if (values.slow) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 60_000);
        signal.addEventListener('abort', () => clearTimeout(timer), { once: true });
      });
    }
    // A real booking service takes the call's requestId as its idempotency key, so a second run
    // after a crash finds the first booking instead of making another; here the reference is
    // derived from it, the same in every run of the call.
    const reference = `PNR-${requestId.slice(-6).toUpperCase()}`;
    print({ type: 'booked', requestId, reference });
    return { reference };
  },
});

const client = new Parley({
  baseUrl: values['base-url'] ?? 'http://127.0.0.1:4010',
  token: 'parley-demo-token',
});
const sessionId = values.session ?? '';
const leaseMs = values['lease-ms'] === undefined ? undefined : Number(values['lease-ms']);
const result = await client.runToolLoop({
  sessionId,
  tools: [bookFlight],
  ...(values.resume ? { reattach: true, heartbeatTimeoutMs: leaseMs } : { content: values.send ?? '' }),
});
print({
  type: 'done',
  status: result.status,
  answer: result.finalText,
  claimed: result.reattached?.claimed.length ?? 0,
  heldElsewhere: result.reattached?.heldElsewhere.length ?? 0,
  completed: result.reattached?.completed.length ?? 0,
});
