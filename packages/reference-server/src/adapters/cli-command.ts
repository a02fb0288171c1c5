import { Command, CommanderError, Help, InvalidArgumentError, Option } from 'commander';
import { maskUrlPasswords } from '../utils/url-password.js';
import { CLI_OPTIONS, type CliOptions } from './cli-options.js';
import { SIGNAL_DEBOUNCE_MS } from './cli-run-debounce.js';
import { SUBCOMMANDS, subcommandsHelp, unknownSubcommandError } from './cli-subcommands.js';

/** Where the CLI writes. */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

/** The environment the CLI reads: variable names to values (`process.env` by default). */
export type CliEnv = Readonly<Record<string, string | undefined>>;

/**
 * The options of one run (and, for `parley-server run`, the command to run), or the exit code when
 * there is nothing to run (help, version, bad input).
 */
export type ParsedCommandLine =
  | { options: CliOptions; command?: string[]; exitCode?: undefined }
  | { exitCode: number };

/** `parley-server run`: the server options, then `--` and the command to run against it. */
const RUN_USAGE = '[server options] -- <command...>';

const HELP_AFTER = `
Flags win over environment variables, which win over the defaults; an empty variable counts as
unset. Relative file paths (--script, --config, --documents, --replay, --record, --report) are
resolved against the directory the command was run from: INIT_CWD when npm or pnpm set it, else
the current directory. Health checks (no token): GET /healthz (the process answers) and
GET /readyz (200 once what the server needs is loaded, 503 not_ready with the reason before).
--chaos settings, comma-separated: rate=0.05 (or 5%) and seed=N are required; kinds=status+drop+
cut-after+malformed+latency (default: all), status=503+429 (default 503), retry-after=1,
cut-after=3 (streamed replies only), latency=MS|uniform:MIN:MAX|lognormal:MEDIAN:SIGMA (default
1000), method=POST and path=/v1/messages/* (which requests; default: all). The same seed and the
same requests give the same faults, counted per session; the journal marks each.`;

/** How the plain server stops. */
const SERVE_SIGNALS = `
SIGINT and SIGTERM stop the server (exit code 0; 1 with --fail-on-violation when the upstream
broke the protocol).
`;

/** How `parley-server run` stops and what it exits with. */
const RUN_SIGNALS = `
The command runs in a process group of its own. SIGINT and SIGTERM are passed on to the whole
group once (the same signal delivered twice within ${SIGNAL_DEBOUNCE_MS} ms, as a Ctrl+C under a package
manager is, counts once); one more kills the group. Once the command exits, what it left running
is ended. Exit status: 130 after SIGINT, 143 after SIGTERM, else the command's (1 with
--fail-on-violation when it passed and the upstream broke the protocol, 127 when it cannot start).
`;

/**
 * Reads the command line and the environment into {@link CliOptions}, built from
 * {@link CLI_OPTIONS}. `--help` and `--version` print and give exit code 0; a bad flag or variable
 * prints an error naming it and gives exit code 2.
 */
export function parseCommandLine(
  argv: readonly string[],
  io: CliIo,
  env: CliEnv,
  version?: string,
  mode: 'serve' | 'run' = 'serve',
): ParsedCommandLine {
  const program = new Command(mode === 'run' ? 'parley-server run' : 'parley-server').description(
    mode === 'run'
      ? "Start the server, run a command against it (PARLEY_BASE_URL, PARLEY_TOKEN), stop the server and exit with the command's status"
      : 'In-memory reference server for the Conversation Session Service',
  );
  // The command and its own flags: everything after `--` (or after its first word).
  if (mode === 'run') program.usage(RUN_USAGE).argument('<command...>').passThroughOptions();
  else
    program.usage(
      `[options]\n       parley-server <${SUBCOMMANDS.map((c) => c.name).join('|')}> ... (each with --help)`,
    );
  const envOf = new Map<string, string>();
  for (const spec of CLI_OPTIONS) {
    const option = new Option(spec.flags, spec.description);
    if (spec.parse !== undefined)
      option.argParser(spec.parse as (value: string, previous: unknown) => unknown);
    if (spec.default !== undefined) option.default(spec.default, spec.defaultDescription);
    program.addOption(option);
    if (spec.env !== undefined) envOf.set(option.attributeName(), spec.env);
  }
  if (version !== undefined) program.version(version, '-V, --version', 'print the version');
  program
    .helpOption('-h, --help', 'show this help')
    .addHelpText(
      'after',
      mode === 'run'
        ? `${RUN_SIGNALS}${HELP_AFTER}`
        : `\n${subcommandsHelp()}\n${SERVE_SIGNALS}${HELP_AFTER}`,
    )
    .configureHelp({
      // "(default: 4010, env: PORT)": the variable is read here, not by commander (see below).
      optionDescription: (option) => {
        const text = Help.prototype.optionDescription.call(new Help(), option);
        const name = envOf.get(option.attributeName());
        if (name === undefined) return text;
        return text.endsWith(')') ? `${text.slice(0, -1)}, env: ${name})` : `${text} (env: ${name})`;
      },
    })
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: (text) => io.stderr(maskUrlPasswords(text)) });

  // `pnpm start -- --port 0` passes the `--` on under pnpm 10: skip it.
  const args = argv[0] === '--' && mode === 'serve' ? argv.slice(1) : [...argv];
  // The subcommands run before this parse (cli-tools.ts, cli-run.ts): a first word here is a typo.
  if (mode === 'serve' && args[0] !== undefined && !args[0].startsWith('-')) {
    io.stderr(maskUrlPasswords(unknownSubcommandError(args[0])));
    return { exitCode: 2 };
  }
  try {
    program.parse(args, { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      const done = ['commander.helpDisplayed', 'commander.help', 'commander.version'].includes(error.code);
      return { exitCode: done ? 0 : 2 };
    }
    throw error;
  }

  // The environment, for every option whose flag was not given. Read here rather than with
  // commander's Option.env() so that the environment can be passed in (tests, embedding).
  for (const spec of CLI_OPTIONS) {
    const key = program.options.find((o) => o.flags === spec.flags)?.attributeName();
    if (spec.env === undefined || key === undefined || program.getOptionValueSource(key) === 'cli') continue;
    const raw = env[spec.env];
    if (raw === undefined || raw.trim() === '') continue;
    try {
      const value =
        spec.parseEnv !== undefined
          ? spec.parseEnv(raw)
          : spec.parse !== undefined
            ? spec.parse(raw, spec.default as never)
            : raw;
      program.setOptionValueWithSource(key, value, 'env');
    } catch (error) {
      if (!(error instanceof InvalidArgumentError)) throw error;
      const shown = spec.secret === true ? '' : ` value '${raw}'`;
      io.stderr(
        maskUrlPasswords(`error: environment variable ${spec.env}${shown} is invalid. ${error.message}\n`),
      );
      return { exitCode: 2 };
    }
  }
  return { options: program.opts<CliOptions>(), ...(mode === 'run' ? { command: program.args } : {}) };
}
