// The tool-loop bench's server, in a process of its own so that the bench's CPU figures are the
// client's alone. Prints its URL as the first message; answers `reset` (between timed runs) with
// `reset`; exits when the parent disconnects.
import { startServer } from '@parley/reference-server/node';

const running = await startServer({ port: 0 });
process.on('message', (message) => {
  if (message !== 'reset') return;
  running.server.reset();
  process.send?.('reset');
});
process.on('disconnect', () => {
  void running.close().then(() => process.exit(0));
});
process.send?.({ url: running.url });
