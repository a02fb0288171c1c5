import { runCli } from './cli.js';

process.exitCode = await runCli(process.argv.slice(2), { output: process.stdout, errors: process.stderr });
