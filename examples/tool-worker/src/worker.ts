// The worker process: jobs as JSON lines on stdin, outcomes as JSON lines on stdout, a log on stderr.
import { parseArgs } from 'node:util';
import { serveJobs } from './serve-jobs.js';
import { createWorker } from './worker-setup.js';

const USAGE = `Usage: worker --base-url URL [--token TOKEN] [--tool-delay-ms MS] [--report-attempts N]
              [--recovery-interval-ms MS] [--concurrency N]
Reads jobs as JSON lines on stdin: {"sessionId","requestId","name","input","heartbeatTimeoutMs"?,"deadlineAt"?}
Writes one outcome per job as a JSON line on stdout; logs on stderr. The token may come from PARLEY_TOKEN.`;

const argv = process.argv.slice(2);
const { values } = parseArgs({
  args: argv[0] === '--' ? argv.slice(1) : argv,
  options: {
    'base-url': { type: 'string' },
    token: { type: 'string' },
    'tool-delay-ms': { type: 'string' },
    'report-attempts': { type: 'string' },
    'recovery-interval-ms': { type: 'string' },
    concurrency: { type: 'string' },
  },
});
const baseUrl = values['base-url'];
const token = values.token ?? process.env.PARLEY_TOKEN;
if (baseUrl === undefined || token === undefined) {
  process.stderr.write(`${USAGE}\n\n--base-url and --token (or PARLEY_TOKEN) are required\n`);
  process.exit(2);
}
const number = (flag: string | undefined) => (flag === undefined ? undefined : Number(flag));
const concurrency = number(values.concurrency);
const worker = createWorker(
  {
    baseUrl,
    token,
    ...optional('toolDelayMs', number(values['tool-delay-ms'])),
    ...optional('reportAttempts', number(values['report-attempts'])),
    ...optional('recoveryIntervalMs', number(values['recovery-interval-ms'])),
  },
  (line) => process.stderr.write(`${line}\n`),
);
await serveJobs({
  input: process.stdin,
  output: process.stdout,
  worker,
  ...optional('concurrency', concurrency),
});

function optional<K extends string>(key: K, value: number | undefined): { [P in K]?: number } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: number };
}
