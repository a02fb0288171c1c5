// Kills a tool worker process mid-call and re-attaches from a new one, against a reference server
// on a free port, in real time (it waits out a 1.5 s lease).
// `npx --yes pnpm@10 --filter @parley/example-crash-recovery start`
import { runCrashDemo } from './crash-demo.js';

await runCrashDemo({ print: (text) => process.stdout.write(text) });
