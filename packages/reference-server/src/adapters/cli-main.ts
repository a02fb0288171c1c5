import { readFile } from 'node:fs/promises';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { DEMO_USER } from '../create-reference-server.js';
import type { ExtensionHostOptions } from '../extensions/create-extension-host.js';
import { loadDocumentsFile, loadExtensionsConfigFile } from '../extensions/load-files.js';
import type { Document } from '../extensions/rag/document.js';
import type { AllowedHosts } from '../http/allowed-hosts.js';
import type { CorsOrigins } from '../http/cors-policy.js';
import type { User } from '../http/token-auth.js';
import type { Model } from '../model/model.js';
import { loadScript } from '../model/script-file.js';
import { scriptedModel } from '../model/scripted-model.js';
import { parseAllowedHosts, parseControlToken, parseCors } from './cli-security-options.js';
import { type RunningServer, startServer } from './start-server.js';

/** Where the CLI writes. */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

/** The result of {@link runCli}: a running server, or an exit code (help, bad flags, listen failure). */
export type CliResult =
  | { running: RunningServer; exitCode?: undefined }
  | { running?: undefined; exitCode: number };

const DEFAULT_PORT = 4010;

function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65_535)
    throw new InvalidArgumentError('must be an integer from 0 to 65535.');
  return port;
}

function parsePositiveInt(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1)
    throw new InvalidArgumentError('must be a positive integer (milliseconds).');
  return n;
}

function collectUser(value: string, previous: User[]): User[] {
  const match = /^([^:\s]+):(\S+)$/.exec(value);
  if (match?.[1] === undefined || match[2] === undefined) {
    throw new InvalidArgumentError('must be NAME:TOKEN (no spaces, both non-empty).');
  }
  return [...previous, { name: match[1], token: match[2] }];
}

function collectDocuments(value: string, previous: Array<[string, string]>): Array<[string, string]> {
  const match = /^([^=\s]+)=(.+)$/.exec(value);
  if (match?.[1] === undefined || match[2] === undefined) {
    throw new InvalidArgumentError('must be NAME=FILE (an index name and a .json or .jsonl file).');
  }
  return [...previous, [match[1], match[2]]];
}

/**
 * The `parley-server` command: parses `argv` (without the node and script paths), starts the
 * server, and prints one line with its URL. Flag errors print a message and give exit code 2.
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<CliResult> {
  const program = new Command('parley-server')
    .description('In-memory reference server for the Conversation Session Service')
    .option('--port <port>', 'TCP port (0 = any free port)', parsePort, DEFAULT_PORT)
    .option('--host <host>', 'interface to bind', '127.0.0.1')
    .addOption(
      new Option('--user <NAME:TOKEN>', 'a user and its bearer token (repeatable)')
        .argParser(collectUser)
        .default([] as User[], 'one demo user whose token is printed'),
    )
    .option(
      '--heartbeat-timeout-ms <ms>',
      'a tool call with no heartbeat for this long is claimable again',
      parsePositiveInt,
      15_000,
    )
    .option('--script <file>', 'answer with a scripted model from this JSON script file (rules or turns)')
    .option(
      '--control',
      'serve the test-only control routes under /_parley/ (they need the control token)',
      false,
    )
    .addOption(
      new Option('--control-token <token>', 'the control token (default: a random one, printed)')
        .env('PARLEY_CONTROL_TOKEN')
        .argParser(parseControlToken),
    )
    .addOption(
      new Option(
        '--allowed-hosts <hosts>',
        'host names to answer besides localhost and IP addresses (a,b or *)',
      )
        .env('PARLEY_ALLOWED_HOSTS')
        .argParser(parseAllowedHosts),
    )
    .option('--no-faults', 'ignore the x-parley-fault header')
    .option('--cors <origins>', 'origins allowed by CORS (a,b or *)', parseCors)
    .option('--no-cors', 'send no CORS headers')
    .option(
      '--config <file>',
      'extensions config (JSON): agents, models, document indexes, tool providers, quotas',
    )
    .addOption(
      new Option('--documents <NAME=FILE>', 'load a document index from a JSON or JSONL file (repeatable)')
        .argParser(collectDocuments)
        .default([] as Array<[string, string]>, 'the built-in "handbook" index only'),
    )
    .helpOption('-h, --help', 'show this help')
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr });

  try {
    // `pnpm start -- --port 0` passes the `--` on under pnpm 10: skip it.
    program.parse(argv[0] === '--' ? argv.slice(1) : [...argv], { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      if (
        error.code === 'commander.helpDisplayed' ||
        error.code === 'commander.help' ||
        error.code === 'commander.version'
      ) {
        return { exitCode: 0 };
      }
      return { exitCode: 2 };
    }
    throw error;
  }
  const opts = program.opts<{
    port: number;
    host: string;
    user: User[];
    heartbeatTimeoutMs: number;
    script?: string;
    control: boolean;
    controlToken?: string;
    allowedHosts?: AllowedHosts;
    faults: boolean;
    cors?: CorsOrigins;
    config?: string;
    documents: Array<[string, string]>;
  }>();
  const users = opts.user.length > 0 ? opts.user : [DEMO_USER];
  let model: Model | undefined;
  if (opts.script !== undefined) {
    try {
      model = scriptedModel(loadScript(JSON.parse(await readFile(opts.script, 'utf8'))));
    } catch (error) {
      io.stderr(`parley-server: --script ${opts.script}: ${(error as Error).message}\n`);
      return { exitCode: 2 };
    }
  }
  let extensions: ExtensionHostOptions = {};
  try {
    if (opts.config !== undefined) extensions = await loadExtensionsConfigFile(opts.config);
  } catch (error) {
    io.stderr(`parley-server: --config ${opts.config}: ${(error as Error).message}\n`);
    return { exitCode: 2 };
  }
  const indexes: Record<string, Document[]> = {};
  for (const [name, file] of opts.documents) {
    try {
      indexes[name] = await loadDocumentsFile(file);
    } catch (error) {
      io.stderr(`parley-server: --documents ${name}=${file}: ${(error as Error).message}\n`);
      return { exitCode: 2 };
    }
  }
  if (opts.documents.length > 0)
    extensions = { ...extensions, indexes: { ...extensions.indexes, ...indexes } };
  try {
    const running = await startServer({
      extensions,
      port: opts.port,
      host: opts.host,
      users,
      heartbeatTimeoutMs: opts.heartbeatTimeoutMs,
      control: opts.control,
      faults: opts.faults,
      cors: opts.cors ?? true,
      ...(opts.controlToken === undefined ? {} : { controlToken: opts.controlToken }),
      ...(opts.allowedHosts === undefined ? {} : { allowedHosts: opts.allowedHosts }),
      ...(model === undefined ? {} : { model }),
    });
    const token = running.server.controlToken;
    const who =
      opts.user.length > 0
        ? `users: ${users.map((u) => u.name).join(', ')}`
        : `demo user "${DEMO_USER.name}", token: ${DEMO_USER.token}`;
    const extras = [
      ...(opts.script === undefined ? [] : [`script ${opts.script}`]),
      ...(token === undefined
        ? []
        : [
            `control routes on ${running.url}/_parley/ (header x-parley-control-token: ${token})`,
            `journal page ${running.url}/_parley/ui/#token=${encodeURIComponent(token)}`,
          ]),
      ...(opts.config === undefined ? [] : [`config ${opts.config}`]),
      ...opts.documents.map(([name, file]) => `index ${name} from ${file}`),
    ];
    io.stdout(
      `Parley reference server listening on ${running.url} (${who})` +
        (extras.length > 0 ? `; ${extras.join('; ')}` : '') +
        '\n',
    );
    return { running };
  } catch (error) {
    io.stderr(`parley-server: cannot listen on ${opts.host}:${opts.port}: ${(error as Error).message}\n`);
    return { exitCode: 1 };
  }
}
