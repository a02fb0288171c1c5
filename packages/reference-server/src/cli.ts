#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import process from 'node:process';
import { runCli } from './adapters/cli-main.js';
import { runWithCommand } from './adapters/cli-run.js';
import { stopOnSignals } from './adapters/stop-on-signals.js';
import { launchedByPackageManager, stopWithLauncher } from './adapters/stop-with-launcher.js';

const io = {
  stdout: (text: string) => process.stdout.write(text),
  stderr: (text: string) => process.stderr.write(text),
};
// src/cli.ts and the built dist/cli.js both sit one folder below the package's package.json.
const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

// npx runs the bin through `sh -c` and passes no signal on: when it dies, stop as on SIGTERM.
if (launchedByPackageManager(process.env)) {
  stopWithLauncher(
    () => process.kill(process.pid, 'SIGTERM'),
    () => process.ppid,
  );
}
// `parley-server run [options] -- <command...>`: the server lives as long as the command.
if (process.argv[2] === 'run') process.exit(await runWithCommand(process.argv.slice(3), io, { version }));

const started = runCli(process.argv.slice(2), io, { version });
// Listening for signals before the server prints its URL: none can kill the process unhandled.
const stopListening = stopOnSignals(
  started.then((result) => result.running),
  io,
  (code) => process.exit(code),
  process,
);
const result = await started;
if (result.running === undefined) {
  stopListening();
  process.exitCode = result.exitCode;
}
