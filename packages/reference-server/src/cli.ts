#!/usr/bin/env node
import process from 'node:process';
import { runCli } from './adapters/cli-main.js';

const result = await runCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
});

if (result.running === undefined) {
  process.exitCode = result.exitCode;
} else {
  const { running } = result;
  const shutdown = () => {
    running.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}
