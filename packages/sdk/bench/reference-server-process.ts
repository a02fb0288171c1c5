// The tool-loop benches' server, in a process of its own so that the bench's CPU figures are the
// client's alone. Prints its URL as the first message; answers `reset` (between timed runs) with
// `reset`; exits when the parent disconnects. BENCH_LEASE_MS sets its heartbeatTimeoutMs.
import { startServer } from '@parley/reference-server/node';

const lease = process.env.BENCH_LEASE_MS;
const running = await startServer({
  port: 0,
  ...(lease !== undefined && { heartbeatTimeoutMs: Number(lease) }),
});
process.on('message', (message) => {
  if (message !== 'reset') return;
  running.server.reset();
  process.send?.('reset');
});
process.on('disconnect', () => {
  void running.close().then(() => process.exit(0));
});
process.send?.({ url: running.url });
