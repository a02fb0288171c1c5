#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import process from 'node:process';
import { runCli } from './adapters/cli-main.js';
import { stopOnSignals } from './adapters/stop-on-signals.js';

const io = {
  stdout: (text: string) => process.stdout.write(text),
  stderr: (text: string) => process.stderr.write(text),
};
// src/cli.ts and the built dist/cli.js both sit one folder below the package's package.json.
const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

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
