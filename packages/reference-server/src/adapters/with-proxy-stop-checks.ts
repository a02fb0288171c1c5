import { ProxyViolationsError } from '../proxy/proxy-violations-error.js';
import type { CliIo } from './cli-command.js';
import type { CliOptions } from './cli-options.js';
import { reportFileProblem, reportFormat, writeProxyReport } from './proxy-report-file.js';
import type { RunningServer } from './start-server.js';
import { StopFailure } from './stop-failure.js';

/** The exit code of `parley-server --fail-on-violation` when the upstream broke the protocol. */
export const VIOLATIONS_EXIT_CODE = 1;

/** The exit code of `parley-server --report FILE` when the report could not be written at stop. */
export const REPORT_NOT_WRITTEN_EXIT_CODE = 1;

/** What the checking proxy does when the server stops: write its report, fail on a violation. */
export interface ProxyStopChecks {
  /** `--report`: the file (resolved) the report is written to. */
  reportFile?: string;
  /** `--fail-on-violation`. */
  failOnViolation: boolean;
}

/**
 * What is wrong with `--report` and `--fail-on-violation` before the server starts: either without
 * `--upstream`, or a report file that cannot be written. Undefined when nothing is.
 */
export function proxyStopProblem(opts: CliOptions, reportFile: string | undefined): string | undefined {
  if (opts.upstream === undefined && (opts.report !== undefined || opts.failOnViolation)) {
    const flag = opts.report === undefined ? '--fail-on-violation' : `--report ${opts.report}`;
    return `${flag} needs --upstream <url> (PARLEY_UPSTREAM_URL): it is about the checking proxy's findings`;
  }
  const problem = reportFile === undefined ? undefined : reportFileProblem(reportFile);
  return problem === undefined ? undefined : `--report ${opts.report}: ${reportFile} ${problem}`;
}

/** The start line's note of what happens at stop, if anything. */
export function proxyStopNote(checks: ProxyStopChecks, shownFile: string | undefined): string[] {
  return [
    ...(shownFile === undefined
      ? []
      : [`report at stop: ${shownFile} (${reportFormat(shownFile) === 'junit' ? 'JUnit XML' : 'JSON'})`]),
    ...(checks.failOnViolation ? [`exit code ${VIOLATIONS_EXIT_CODE} at stop on a protocol violation`] : []),
  ];
}

/**
 * The running server with the checks done when it stops: after closing (every request finished,
 * the summary printed), the report is written, and with `failOnViolation` a violation makes
 * `close()` reject with a {@link StopFailure} (exit code {@link VIOLATIONS_EXIT_CODE}) naming the
 * count and each kind. The report is written whole or not at all: a failed write keeps the report
 * the file held and makes `close()` reject with a {@link StopFailure} naming the file.
 */
export function withProxyStopChecks(
  running: RunningServer,
  checks: ProxyStopChecks,
  io: CliIo,
): RunningServer {
  const proxy = running.server.proxy;
  if (proxy === undefined || (checks.reportFile === undefined && !checks.failOnViolation)) return running;
  return {
    ...running,
    close: async () => {
      await running.close();
      const report = proxy.report();
      if (checks.reportFile !== undefined) {
        try {
          await writeProxyReport(checks.reportFile, report);
        } catch (error) {
          // Written whole or not at all: the report the file held before is still there.
          throw new StopFailure(
            `parley-server: --report ${checks.reportFile} could not be written ` +
              `(${(error as Error).message}); the previous report is kept`,
            REPORT_NOT_WRITTEN_EXIT_CODE,
          );
        }
        io.stderr(`[parley] proxy report written to ${checks.reportFile}\n`);
      }
      if (checks.failOnViolation && report.violations > 0) {
        throw new StopFailure(
          `parley-server: ${new ProxyViolationsError(report).message}\n` +
            `(--fail-on-violation: exit code ${VIOLATIONS_EXIT_CODE})`,
          VIOLATIONS_EXIT_CODE,
        );
      }
    },
  };
}
