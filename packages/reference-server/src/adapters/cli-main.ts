import { readFile } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import process from 'node:process';
import { DEMO_USER } from '../create-reference-server.js';
import type { ExtensionHostOptions } from '../extensions/create-extension-host.js';
import { loadDocumentsFile, loadExtensionsConfigFile } from '../extensions/load-files.js';
import type { Document } from '../extensions/rag/document.js';
import type { Model } from '../model/model.js';
import { loadScript } from '../model/script-file.js';
import { scriptedModel } from '../model/scripted-model.js';
import { cliCassette } from './cli-cassette.js';
import { chaosNote } from './cli-chaos-option.js';
import { type CliEnv, type CliIo, parseCommandLine } from './cli-command.js';
import type { CliOptions } from './cli-options.js';
import { paceNote } from './cli-pace-options.js';
import { runToolCommand } from './cli-tools.js';
import { readUsersFile } from './cli-user-options.js';
import { type RunningServer, startServer } from './start-server.js';
import { proxyStopNote, proxyStopProblem, withProxyStopChecks } from './with-proxy-stop-checks.js';

export type { CliEnv, CliIo } from './cli-command.js';

/** Where {@link runCli} runs: its environment, directory and version. Each has a default. */
export interface CliContext {
  /** Variables read for options whose flag is not given (`PORT`, `PARLEY_USERS`, ...). Default `process.env`. */
  env?: CliEnv;
  /**
   * The directory relative file paths are resolved against when `env.INIT_CWD` is unset (npm and
   * pnpm set it to where the user ran the command). Default `process.cwd()`.
   */
  cwd?: string;
  /** What `--version` prints; without it the command has no `--version`. */
  version?: string;
  /** `'run'`: `parley-server run`, whose command line ends with `-- <command...>` (cli-run.ts). */
  mode?: 'serve' | 'run';
}

/** The result of {@link runCli}: a running server, or an exit code (help, bad flags, listen failure). */
export type CliResult =
  | { running: RunningServer; command?: string[]; exitCode?: undefined }
  | { running?: undefined; exitCode: number };

/**
 * The `parley-server` command: parses `argv` (without the node and script paths) and the
 * environment, starts the server, and prints its URL (and, indented below, what else it serves). A bad flag, variable or file
 * prints a message and gives exit code 2; a port that cannot be bound gives 1.
 */
export async function runCli(
  argv: readonly string[],
  io: CliIo,
  context: CliContext = {},
): Promise<CliResult> {
  const env = context.env ?? process.env;
  // `parley-server cassette ...` and `parley-server drift ...` run once and exit (cli-tools.ts).
  const tool = context.mode === 'run' ? undefined : await runToolCommand(argv, io, context);
  if (tool !== undefined) return { exitCode: tool };
  const parsed = parseCommandLine(argv, io, env, context.version, context.mode);
  if (parsed.exitCode !== undefined) return { exitCode: parsed.exitCode };
  const opts = parsed.options;
  const base = env.INIT_CWD?.trim() ? env.INIT_CWD : (context.cwd ?? process.cwd());
  const at = (file: string) => (isAbsolute(file) ? file : resolve(base, file));

  const cassette = cliCassette(opts, at, io, Date.now());
  if ('exitCode' in cassette) return { exitCode: cassette.exitCode };

  let model: Model | undefined;
  if (opts.script !== undefined) {
    try {
      model = scriptedModel(loadScript(JSON.parse(await readFile(at(opts.script), 'utf8'))));
    } catch (error) {
      io.stderr(`parley-server: --script ${opts.script}: ${(error as Error).message}\n`);
      return { exitCode: 2 };
    }
  }
  let extensions: ExtensionHostOptions = {};
  try {
    if (opts.config !== undefined) extensions = await loadExtensionsConfigFile(at(opts.config));
  } catch (error) {
    io.stderr(`parley-server: --config ${opts.config}: ${(error as Error).message}\n`);
    return { exitCode: 2 };
  }
  const indexes: Record<string, Document[]> = {};
  for (const [name, file] of opts.documents) {
    try {
      indexes[name] = await loadDocumentsFile(at(file));
    } catch (error) {
      io.stderr(`parley-server: --documents ${name}=${file}: ${(error as Error).message}\n`);
      return { exitCode: 2 };
    }
  }
  if (opts.documents.length > 0)
    extensions = { ...extensions, indexes: { ...extensions.indexes, ...indexes } };

  if (opts.upstream === undefined && opts.upstreamToken !== undefined) {
    io.stderr(
      'parley-server: --upstream-token (PARLEY_UPSTREAM_TOKEN) needs --upstream (PARLEY_UPSTREAM_URL)\n',
    );
    return { exitCode: 2 };
  }
  const reportFile = opts.report === undefined ? undefined : at(opts.report);
  const stopProblem = proxyStopProblem(opts, reportFile);
  if (stopProblem !== undefined) {
    io.stderr(`parley-server: ${stopProblem}\n`);
    return { exitCode: 2 };
  }
  let fileUsers: Awaited<ReturnType<typeof readUsersFile>> = [];
  try {
    if (opts.usersFile !== undefined) fileUsers = await readUsersFile(at(opts.usersFile));
  } catch (error) {
    io.stderr(`parley-server: --users-file ${opts.usersFile}: ${(error as Error).message}\n`);
    return { exitCode: 2 };
  }
  const given = [...opts.user, ...fileUsers];
  const users = given.length > 0 ? given : [DEMO_USER];
  let running: RunningServer;
  try {
    running = await startServer({
      extensions,
      port: opts.port,
      host: opts.host,
      users,
      heartbeatTimeoutMs: opts.heartbeatTimeoutMs,
      toolCallTimeoutMs: opts.toolCallTimeoutMs,
      ...(opts.maxSessions === undefined ? {} : { maxSessions: opts.maxSessions }),
      control: opts.control,
      faults: opts.faults,
      ...(opts.chaos === undefined ? {} : { chaos: opts.chaos }),
      cors: opts.cors ?? true,
      ...(opts.controlToken === undefined ? {} : { controlToken: opts.controlToken }),
      ...(opts.allowedHosts === undefined ? {} : { allowedHosts: opts.allowedHosts }),
      ...(model === undefined ? {} : { model }),
      ...(opts.pace === undefined ? {} : { pace: opts.pace }),
      ...(opts.upstream === undefined
        ? {}
        : {
            upstream: {
              url: opts.upstream,
              timeoutMs: opts.upstreamTimeoutMs,
              log: (line: string) => io.stderr(`${line}\n`),
              ...(opts.upstreamToken === undefined ? {} : { token: opts.upstreamToken }),
            },
          }),
      ...(cassette.replay === undefined ? {} : { replay: cassette.replay }),
      ...(cassette.record === undefined ? {} : { record: cassette.record }),
    });
  } catch (error) {
    io.stderr(`parley-server: cannot listen on ${opts.host}:${opts.port}: ${(error as Error).message}\n`);
    return { exitCode: 1 };
  }
  io.stdout(`${listeningLines(running, opts, given, cassette.lines)}\n`);
  const checks = {
    failOnViolation: opts.failOnViolation,
    ...(reportFile === undefined ? {} : { reportFile }),
  };
  return {
    running: withProxyStopChecks(running, checks, io),
    ...(parsed.command === undefined ? {} : { command: parsed.command }),
  };
}

/**
 * The lines printed once the server listens: its URL and user, then one indented line per extra
 * (control routes, journal page, MCP providers, files), or a short line on how to turn on the
 * journal when the control routes are off.
 */
function listeningLines(
  running: RunningServer,
  opts: CliOptions,
  /** The users given (flags, variable, file); none: the demo user. */
  users: readonly { name: string }[],
  cassetteLines: readonly string[],
): string {
  const token = running.server.controlToken;
  const who =
    users.length > 0
      ? `users: ${users.map((u) => u.name).join(', ')}`
      : `demo user "${DEMO_USER.name}", token: ${DEMO_USER.token}`;
  const proxy = running.server.proxy;
  const extras = [
    // With a replay, the upstream answers only what the cassette lacks (its line says so).
    ...(proxy === undefined || opts.replay !== undefined || opts.recordMissing !== undefined
      ? []
      : [
          `checking proxy to ${proxy.upstream} (${opts.upstreamToken === undefined ? "clients' tokens pass through" : 'local tokens replaced by the upstream token'})`,
        ]),
    ...(proxy === undefined || token === undefined
      ? []
      : [`proxy report:   ${running.url}/_parley/proxy/report`]),
    ...cassetteLines,
    ...proxyStopNote({ failOnViolation: opts.failOnViolation }, opts.report),
    ...(token === undefined
      ? ['journal and control routes: off (start with --control to inspect requests)']
      : [
          `control routes: ${running.url}/_parley/ (header x-parley-control-token: ${token})`,
          `journal page:   ${running.url}/_parley/ui/#token=${encodeURIComponent(token)}`,
        ]),
    ...(running.server.mcpOverHttp ? [`MCP providers:  ${running.url}/mcp/<name>`] : []),
    ...(opts.chaos === undefined ? [] : [chaosNote(opts.chaos)]),
    ...(opts.pace === undefined ? [] : [paceNote(opts.pace)]),
    ...(opts.script === undefined ? [] : [`script:         ${opts.script}`]),
    ...(opts.config === undefined ? [] : [`config:         ${opts.config}`]),
    ...opts.documents.map(
      ([name, file]) => `index ${name}:${' '.repeat(Math.max(1, 9 - name.length))}${file}`,
    ),
  ];
  return [
    `Parley reference server listening on ${running.url} (${who})`,
    ...extras.map((e) => `  ${e}`),
  ].join('\n');
}
