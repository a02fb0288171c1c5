// The tool-loop benches' server, in a process of its own so that the bench's CPU figures are the
// client's alone. Prints its URL as the first message; answers `reset` (between timed runs) with
// `reset`, and `{ lapses: { leasedSend } }` with the leases that lapsed (see leaseLapses);
// exits when the parent disconnects. BENCH_LEASE_MS sets its heartbeatTimeoutMs.
import { startServer } from '@parley/reference-server/node';
import { leaseLapses } from './lease-lapses.js';

const lease = process.env.BENCH_LEASE_MS;
const running = await startServer({
  port: 0,
  ...(lease !== undefined && { heartbeatTimeoutMs: Number(lease) }),
  // Every request of a timed run (about 7 per loop), for leaseLapses.
  journalLimit: 100_000,
  journalMaxBytes: 256 * 1024 * 1024,
});
process.on('message', (message: unknown) => {
  if (message === 'reset') {
    running.server.reset();
    process.send?.('reset');
  } else if (typeof message === 'object' && message !== null && 'lapses' in message) {
    const { leasedSend } = (message as { lapses: { leasedSend: boolean } }).lapses;
    const entries = running.server.journal.entries();
    process.send?.({ lapses: leaseLapses(entries, running.server.heartbeatTimeoutMs, leasedSend) });
  }
});
process.on('disconnect', () => {
  void running.close().then(() => process.exit(0));
});
process.send?.({ url: running.url });
