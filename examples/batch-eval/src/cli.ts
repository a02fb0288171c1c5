import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { DEMO_USER, type RunningServer, startServer } from '@parley/reference-server';
import { Parley } from '@parley/sdk';
import { Progress, type ProgressOutput } from './progress.js';
import { parsePrompts } from './prompts.js';
import { DEFAULT_CONCURRENCY, runBatch } from './run-batch.js';
import { formatSummary } from './summary-table.js';

/** The prompts file used when none is given. */
export const EXAMPLE_FILE = fileURLToPath(new URL('../prompts.example.jsonl', import.meta.url));

export const USAGE = `Usage: batch-eval [FILE.jsonl] [--concurrency N] [--base-url URL] [--token TOKEN]

  FILE.jsonl       one {"id", "prompt", "expect"?} per line (default: prompts.example.jsonl)
  --concurrency N  prompts in flight at once (default ${DEFAULT_CONCURRENCY})
  --base-url URL   a running Conversation Session Service (default: start an embedded reference server)
  --token TOKEN    its bearer token (default: $PARLEY_TOKEN, or the demo token for the embedded server)

Exit code: 0 when every prompt passed, 1 when one failed or errored or a line was bad, 2 on a usage error.`;

export interface CliIo {
  output: ProgressOutput;
  errors: { write(text: string): unknown };
}

/** The whole command. Resolves with the exit code. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  let file: string;
  let concurrency: number;
  let baseUrl: string | undefined;
  let token: string | undefined;
  try {
    const { values, positionals } = parseArgs({
      // `pnpm start -- FILE` passes the `--` on: drop it.
      args: argv[0] === '--' ? argv.slice(1) : [...argv],
      allowPositionals: true,
      options: {
        concurrency: { type: 'string', default: String(DEFAULT_CONCURRENCY) },
        'base-url': { type: 'string' },
        token: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
    if (values.help) {
      io.output.write(`${USAGE}\n`);
      return 0;
    }
    if (positionals.length > 1) throw new Error('give one prompts file');
    file = positionals[0] ?? EXAMPLE_FILE;
    concurrency = Number(values.concurrency);
    if (!Number.isInteger(concurrency) || concurrency < 1)
      throw new Error('--concurrency must be an integer >= 1');
    baseUrl = values['base-url'];
    token = values.token ?? process.env.PARLEY_TOKEN;
    if (baseUrl !== undefined && token === undefined)
      throw new Error('--token (or PARLEY_TOKEN) is needed with --base-url');
  } catch (error) {
    io.errors.write(`batch-eval: ${error instanceof Error ? error.message : String(error)}\n\n${USAGE}\n`);
    return 2;
  }

  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    io.errors.write(
      `batch-eval: cannot read ${file}: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    return 2;
  }
  const { prompts, badLines } = parsePrompts(text);
  for (const bad of badLines) io.errors.write(`${file}:${bad.line}: ${bad.error}\n`);

  let embedded: RunningServer | undefined;
  try {
    if (baseUrl === undefined) {
      embedded = await startServer({ port: 0 });
      baseUrl = embedded.url;
      token = DEMO_USER.token;
    }
    const client = new Parley({ baseUrl, token: token ?? DEMO_USER.token });
    io.output.write(`${prompts.length} prompts from ${file} → ${baseUrl} (concurrency ${concurrency})\n`);
    const progress = new Progress(io.output, prompts.length);
    const results = await runBatch(client, prompts, { concurrency, onResult: (r) => progress.tick(r) });
    progress.finish();
    io.output.write(`\n${formatSummary(results)}\n`);
    if (badLines.length > 0) io.output.write(`${badLines.length} bad lines skipped (see above)\n`);
    return badLines.length === 0 && results.every((r) => r.status === 'pass') ? 0 : 1;
  } finally {
    await embedded?.close();
  }
}
