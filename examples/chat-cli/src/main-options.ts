import { parseArgs } from 'node:util';

export interface MainOptions {
  baseUrl: string | undefined;
  token: string | undefined;
  help: boolean;
}

export const USAGE = `Usage: chat-cli [--base-url URL] [--token TOKEN]

  --base-url URL   a running Conversation Session Service (default: start an embedded reference server)
  --token TOKEN    its bearer token (default: $PARLEY_TOKEN, or the demo token for the embedded server)
  -h, --help       this help

In the chat: ask for the time or a dice roll, type stand-in directives such as "/say Hi", or /exit.`;

/** Parses the command line; throws a TypeError with a readable message on unknown flags. */
export function parseMainOptions(argv: readonly string[]): MainOptions {
  const { values } = parseArgs({
    // `pnpm start -- --base-url ...` passes the `--` on: drop it.
    args: argv[0] === '--' ? argv.slice(1) : [...argv],
    options: {
      'base-url': { type: 'string' },
      token: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
    allowPositionals: false,
  });
  return {
    baseUrl: values['base-url'],
    token: values.token ?? process.env.PARLEY_TOKEN,
    help: values.help ?? false,
  };
}
