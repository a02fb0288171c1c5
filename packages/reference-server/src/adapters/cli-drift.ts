import { Command, InvalidArgumentError, Option } from 'commander';
import { driftReportJunit, formatDriftReport } from '../drift/drift-format.js';
import { DriftUpstreamError, driftReport } from '../drift/drift-run.js';
import { DRIFT_KINDS, type DriftKind } from '../drift/drift-types.js';
import { maskUrlPasswords } from '../utils/url-password.js';
import type { CliEnv, CliIo } from './cli-command.js';
import { parsePositiveInt } from './cli-options.js';
import { parseUpstreamToken, parseUpstreamUrl } from './cli-upstream-options.js';
import { reportFileProblem, reportFormat, writeReportFile } from './proxy-report-file.js';

/** `--ignore usage,text`: kinds of drift not to report. */
export function parseIgnore(value: string): DriftKind[] {
  const kinds = value
    .split(',')
    .map((kind) => kind.trim())
    .filter((kind) => kind !== '');
  for (const kind of kinds) {
    if (!(DRIFT_KINDS as readonly string[]).includes(kind)) {
      throw new InvalidArgumentError(`"${kind}" is not a kind of drift; use ${DRIFT_KINDS.join(', ')}.`);
    }
  }
  return kinds as DriftKind[];
}

function parseSimilarity(value: string): number {
  const n = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value) || n > 1) throw new InvalidArgumentError('must be a number from 0 to 1.');
  return n;
}

const AFTER = `
Plays each recorded session's user turns and tool results against the deployment, through the
checking proxy, and reports per turn what differs: ${DRIFT_KINDS.join(', ')}. What breaks the
protocol is reported as a violation, not as drift.
Exit codes: 0 the run finished (drift or not, unless asked to fail); 1 with --fail-on-drift when a
turn differs, or --fail-on-violation when the deployment broke the protocol; 2 a bad flag, an
unreadable cassette, or a deployment that cannot be reached or refuses the token (no report then).`;

interface DriftFlags {
  cassette: string;
  upstream?: string;
  upstreamToken?: string;
  upstreamTimeoutMs: number;
  ignore?: DriftKind[];
  textSimilarity?: number;
  report?: string;
  json?: boolean;
  failOnDrift?: boolean;
  failOnViolation?: boolean;
}

/** `parley-server drift --cassette F --upstream URL`: resolves the exit code. */
export async function runDriftCommand(
  argv: readonly string[],
  io: CliIo,
  context: { at: (file: string) => string; env: CliEnv },
): Promise<number> {
  const program = new Command('parley-server drift')
    .description('report how the live deployment now answers the conversations of a cassette')
    .requiredOption('--cassette <file>', 'the cassette whose conversations are played')
    .option('--upstream <url>', 'the deployment (env: PARLEY_UPSTREAM_URL)', parseUpstreamUrl)
    .option(
      '--upstream-token <token>',
      'the bearer token sent to it (env: PARLEY_UPSTREAM_TOKEN)',
      parseUpstreamToken,
    )
    .addOption(
      new Option('--upstream-timeout-ms <ms>', 'how long to wait for each answer')
        .argParser(parsePositiveInt)
        .default(120_000),
    )
    .option('--ignore <kinds>', `kinds of difference not to report (${DRIFT_KINDS.join(',')})`, parseIgnore)
    .option(
      '--text-similarity <n>',
      'texts at least this alike (0 to 1) are no drift (default 1: any difference)',
      parseSimilarity,
    )
    .option('--report <file>', 'write the report: JSON, or JUnit XML for a .xml file')
    .option('--json', 'print the report as JSON instead of text')
    .option('--fail-on-drift', 'exit with code 1 when a turn differs')
    .option('--fail-on-violation', 'exit with code 1 when the deployment broke the protocol')
    .addHelpText('after', AFTER)
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: (text) => io.stderr(maskUrlPasswords(text)) });
  try {
    program.parse([...argv], { from: 'user' });
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code !== 'string' || !code.startsWith('commander.')) throw error;
    return ['commander.helpDisplayed', 'commander.help'].includes(code) ? 0 : 2;
  }
  const flags = program.opts<DriftFlags>();
  const fail = (message: string) => {
    io.stderr(`parley-server drift: ${maskUrlPasswords(message)}\n`);
    return 2;
  };
  let upstream = flags.upstream;
  let token = flags.upstreamToken;
  try {
    if (upstream === undefined && context.env.PARLEY_UPSTREAM_URL?.trim()) {
      upstream = parseUpstreamUrl(context.env.PARLEY_UPSTREAM_URL);
    }
    if (token === undefined && context.env.PARLEY_UPSTREAM_TOKEN?.trim()) {
      token = parseUpstreamToken(context.env.PARLEY_UPSTREAM_TOKEN);
    }
  } catch (error) {
    return fail(`environment: ${(error as Error).message}`);
  }
  if (upstream === undefined)
    return fail('needs --upstream <url> (PARLEY_UPSTREAM_URL): the deployment to compare with');
  const reportFile = flags.report === undefined ? undefined : context.at(flags.report);
  const problem = reportFile === undefined ? undefined : reportFileProblem(reportFile);
  if (problem !== undefined) return fail(`--report ${flags.report} ${problem}`);
  let report: Awaited<ReturnType<typeof driftReport>>;
  try {
    report = await driftReport({
      cassette: context.at(flags.cassette),
      upstream: {
        url: upstream,
        timeoutMs: flags.upstreamTimeoutMs,
        log: (line) => io.stderr(`${line}\n`),
        ...(token === undefined ? {} : { token }),
      },
      ...(flags.ignore === undefined ? {} : { ignore: flags.ignore }),
      ...(flags.textSimilarity === undefined ? {} : { textSimilarity: flags.textSimilarity }),
    });
  } catch (error) {
    if (error instanceof DriftUpstreamError) {
      return fail(`cannot compare with ${upstream}: ${error.message}. No report was made.`);
    }
    return fail(`--cassette ${flags.cassette}: ${(error as Error).message}`);
  }
  let notWritten: string | undefined;
  if (reportFile !== undefined) {
    const text =
      reportFormat(reportFile) === 'junit'
        ? driftReportJunit(report)
        : `${JSON.stringify(report, null, 2)}\n`;
    try {
      await writeReportFile(reportFile, text);
    } catch (error) {
      notWritten = (error as Error).message;
    }
  }
  io.stdout(flags.json === true ? `${JSON.stringify(report, null, 2)}\n` : formatDriftReport(report));
  if (notWritten !== undefined) {
    return fail(`--report ${flags.report} could not be written (${notWritten}); the previous report is kept`);
  }
  const drifted = flags.failOnDrift === true && report.drifts + report.sessionsStopped > 0;
  const broke = flags.failOnViolation === true && report.violations > 0;
  return drifted || broke ? 1 : 0;
}
