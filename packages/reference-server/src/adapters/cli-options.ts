import { InvalidArgumentError } from 'commander';
import type { AllowedHosts } from '../http/allowed-hosts.js';
import type { CorsOrigins } from '../http/cors-policy.js';
import type { ChaosOptions } from '../testing/chaos-options.js';
import { CASSETTE_CLI_OPTIONS, type CliCassetteOptions } from './cli-cassette-options.js';
import { parseChaos } from './cli-chaos-option.js';
import { type CliLimitOptions, LIMIT_CLI_OPTIONS } from './cli-limit-options.js';
import { type CliPaceOptions, PACE_CLI_OPTIONS } from './cli-pace-options.js';
import { parseAllowedHosts, parseControlToken, parseCors } from './cli-security-options.js';
import { parseUpstreamToken, parseUpstreamUrl } from './cli-upstream-options.js';
import { type CliUserOptions, USER_CLI_OPTIONS } from './cli-user-options.js';

/**
 * One option of the `parley-server` command: its flag, the environment variable that sets it when
 * the flag is not given, how a value is read, and its default. The command is built from
 * {@link CLI_OPTIONS}; adding an option is one entry there and one field in {@link CliOptions}.
 */
export interface CliOptionSpec {
  /** Commander flags, e.g. `--port <port>` (a flag without `<value>` is a boolean switch). */
  flags: string;
  description: string;
  /** Environment variable read when the flag is not given; an empty value counts as unset. */
  env?: string;
  /** Reads one flag value (`previous` is the value so far: the default or earlier repeats). */
  parse?: (value: string, previous: never) => unknown;
  /** Reads the environment variable's value; by default {@link parse} with the default value. */
  parseEnv?: (value: string) => unknown;
  default?: unknown;
  /** How `--help` shows the default, when not the value itself. */
  defaultDescription?: string;
  /** The value holds credentials: an error about the variable does not print it. */
  secret?: boolean;
}

/** The option values of one run, flags over environment over defaults. */
export interface CliOptions extends CliCassetteOptions, CliLimitOptions, CliPaceOptions, CliUserOptions {
  port: number;
  host: string;
  heartbeatTimeoutMs: number;
  toolCallTimeoutMs: number;
  script?: string;
  replay?: string;
  replayOnMismatch?: 'error' | 'stand-in' | 'upstream';
  replayPace?: 'recorded' | 'fast';
  replayMatch?: 'order' | 'agentId' | 'sessionData';
  record?: string;
  recordRedact?: string[];
  control: boolean;
  controlToken?: string;
  allowedHosts?: AllowedHosts;
  faults: boolean;
  /** `--chaos`: seeded chaos from the start. */
  chaos?: ChaosOptions;
  /** `false` from `--no-cors`; undefined when neither flag is given (any origin). */
  cors?: CorsOrigins | false;
  config?: string;
  documents: Array<[name: string, file: string]>;
  upstream?: string;
  upstreamToken?: string;
  upstreamTimeoutMs: number;
  /** `--report`: where the checking proxy's report is written at stop (JSON, or JUnit XML for `.xml`). */
  report?: string;
  /** `--fail-on-violation`: exit code 1 at stop when the upstream broke the protocol. */
  failOnViolation: boolean;
}

export const DEFAULT_PORT = 4010;

export function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65_535) {
    throw new InvalidArgumentError('must be an integer from 0 to 65535.');
  }
  return port;
}

/** A duration in milliseconds: a positive integer. */
export function parsePositiveInt(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1 || !Number.isSafeInteger(n)) {
    throw new InvalidArgumentError('must be a positive integer (milliseconds).');
  }
  return n;
}

/** An on/off variable such as `PARLEY_CONTROL`: 1, true, yes, on or 0, false, no, off. */
export function parseSwitch(value: string): boolean {
  const text = value.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(text)) return true;
  if (['0', 'false', 'no', 'off'].includes(text)) return false;
  throw new InvalidArgumentError('must be 1, true, yes or on (or 0, false, no, off).');
}

/** `--documents NAME=FILE`, repeatable. */
export function collectDocuments(value: string, previous: Array<[string, string]>): Array<[string, string]> {
  const match = /^([^=\s]+)=(.+)$/.exec(value);
  if (match?.[1] === undefined || match[2] === undefined) {
    throw new InvalidArgumentError('must be NAME=FILE (an index name and a .json or .jsonl file).');
  }
  return [...previous, [match[1], match[2]]];
}

/** A value out of a fixed list. */
export function oneOf<const T extends string>(...values: T[]): (value: string) => T {
  return (value) => {
    if ((values as string[]).includes(value)) return value as T;
    throw new InvalidArgumentError(`must be one of ${values.join(', ')}.`);
  };
}

/** A comma-separated list of non-empty items. */
export function parseList(value: string): string[] {
  return value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

/** Every option of `parley-server`, in the order `--help` lists them. */
export const CLI_OPTIONS: readonly CliOptionSpec[] = [
  {
    flags: '--port <port>',
    description: 'TCP port, 0 for any free port',
    env: 'PORT',
    parse: parsePort,
    default: DEFAULT_PORT,
  },
  { flags: '--host <host>', description: 'interface to bind', env: 'HOST', default: '127.0.0.1' },
  ...USER_CLI_OPTIONS,
  {
    flags: '--heartbeat-timeout-ms <ms>',
    description: 'a tool call with no heartbeat for this long is claimable again',
    env: 'PARLEY_HEARTBEAT_TIMEOUT_MS',
    parse: parsePositiveInt,
    default: 15_000,
  },
  {
    flags: '--tool-call-timeout-ms <ms>',
    description: 'a tool call is abandoned this long after the model asked for it, heartbeats or not',
    env: 'PARLEY_TOOL_CALL_TIMEOUT_MS',
    parse: parsePositiveInt,
    default: 600_000,
  },
  ...LIMIT_CLI_OPTIONS,
  {
    flags: '--script <file>',
    description: 'answer with a scripted model from this JSON script file (rules or turns)',
    env: 'PARLEY_SCRIPT_FILE',
  },
  {
    flags: '--replay <file>',
    description: 'answer with the recorded assistant turns of this cassette file, see --record',
    env: 'PARLEY_REPLAY_FILE',
  },
  {
    flags: '--replay-on-mismatch <mode>',
    description:
      'a call unlike the recording: error (501 replay_mismatch), stand-in (the stand-in model answers) or upstream (--upstream answers, not recorded)',
    env: 'PARLEY_REPLAY_ON_MISMATCH',
    parse: oneOf('error', 'stand-in', 'upstream'),
    default: 'error',
  },
  {
    flags: '--replay-pace <pace>',
    description:
      "a replayed stream's timing: fast (no waits; the default) or recorded (as long as when recorded, see --replay-speed)",
    env: 'PARLEY_REPLAY_PACE',
    parse: oneOf('fast', 'recorded'),
  },
  {
    flags: '--replay-match <key>',
    description: 'how sessions find their recording: order (of creation), agentId or sessionData',
    env: 'PARLEY_REPLAY_MATCH',
    parse: oneOf('order', 'agentId', 'sessionData'),
    default: 'order',
  },
  {
    flags: '--record <file>',
    description:
      'write what passes through the proxy as a cassette file when the server stops; needs --upstream',
    env: 'PARLEY_RECORD_FILE',
  },
  {
    flags: '--record-redact <paths>',
    description: 'cassette fields to redact: dotted paths in each session, comma-separated, * for any key',
    env: 'PARLEY_RECORD_REDACT',
    parse: parseList,
  },
  ...CASSETTE_CLI_OPTIONS,
  ...PACE_CLI_OPTIONS,
  {
    flags: '--control',
    description: 'serve the test-only control routes under /_parley/ (they need the control token)',
    env: 'PARLEY_CONTROL',
    parseEnv: parseSwitch,
    default: false,
  },
  {
    flags: '--control-token <token>',
    description: 'the control token of /_parley/ (default: a random one, printed)',
    env: 'PARLEY_CONTROL_TOKEN',
    parse: parseControlToken,
    secret: true,
  },
  {
    flags: '--allowed-hosts <hosts>',
    description: 'host names to answer besides localhost and IP addresses (a,b or *)',
    env: 'PARLEY_ALLOWED_HOSTS',
    parse: parseAllowedHosts,
  },
  { flags: '--no-faults', description: 'ignore the x-parley-fault header' },
  {
    flags: '--chaos <settings>',
    description:
      'seeded chaos: a share of requests get a fault, e.g. rate=0.05,seed=42,kinds=status+drop+cut-after+malformed+latency (more in docs/testing.md)',
    env: 'PARLEY_CHAOS',
    parse: parseChaos,
  },
  {
    flags: '--cors <origins>',
    description: 'origins allowed by CORS (a,b or *; default any origin)',
    env: 'PARLEY_CORS',
    parse: parseCors,
  },
  { flags: '--no-cors', description: 'send no CORS headers' },
  {
    flags: '--config <file>',
    description: 'extensions config (JSON): agents, models, document indexes, tool providers, quotas',
    env: 'PARLEY_CONFIG_FILE',
  },
  {
    flags: '--documents <NAME=FILE>',
    description: 'load a document index from a JSON or JSONL file (repeatable)',
    parse: collectDocuments,
    default: [],
    defaultDescription: 'the built-in "handbook" index only',
  },
  {
    flags: '--upstream <url>',
    description:
      'run as a checking proxy: forward every /v1 request to this deployment and check its answers against the protocol',
    env: 'PARLEY_UPSTREAM_URL',
    parse: parseUpstreamUrl,
  },
  {
    flags: '--upstream-token <token>',
    description:
      "the bearer token sent upstream in place of a local user's (default: the client's token passes through)",
    env: 'PARLEY_UPSTREAM_TOKEN',
    parse: parseUpstreamToken,
    secret: true,
  },
  {
    flags: '--upstream-timeout-ms <ms>',
    description: "how long the proxy waits for the upstream's answer before a 504",
    env: 'PARLEY_UPSTREAM_TIMEOUT_MS',
    parse: parsePositiveInt,
    default: 120_000,
  },
  {
    flags: '--report <file>',
    description:
      "write the checking proxy's report when the server stops: JSON, or JUnit XML (one failed testcase per kind of violation) for a .xml file; needs --upstream",
    env: 'PARLEY_PROXY_REPORT',
  },
  {
    flags: '--fail-on-violation',
    description:
      'exit with code 1 when the server stops if the upstream broke the protocol, naming the count and each kind; needs --upstream',
    default: false,
  },
];
