import { runTour } from './tour.js';

try {
  const results = await runTour({ output: process.stdout });
  const ok = results.every((r) => r.toolResults === (r.name.includes('conflict') ? 0 : 1));
  process.stdout.write(
    `\n${ok ? 'Every call was answered exactly once, or not at all once abandoned.' : 'Unexpected result!'}\n`,
  );
  process.exitCode = ok ? 0 : 1;
} catch (error) {
  console.error(error);
  process.exitCode = 1;
}
