import { runCli } from './cli.js';

process.exitCode = await runCli(process.argv.slice(2), {
  input: process.stdin,
  output: process.stdout,
  errors: process.stderr,
  interactive: process.stdin.isTTY === true && process.stdout.isTTY === true,
});
