import { nearestName } from '../utils/nearest-name.js';
/** The subcommands of `parley-server`, as its `--help` lists them (each has its own `--help`). */
export const SUBCOMMANDS = [
  {
    name: 'run',
    usage: 'run [server options] -- <command...>',
    description: 'start the server, run a command against it, stop the server',
  },
  {
    name: 'drift',
    usage: 'drift --cassette FILE --upstream URL',
    description: "how a deployment now answers a cassette's conversations",
  },
  {
    name: 'cassette',
    usage: 'cassette lint|list FILE...',
    description: 'check or list cassette files offline',
  },
] as const;

/** The `Commands:` section of the main `--help`. */
export function subcommandsHelp(): string {
  const width = Math.max(...SUBCOMMANDS.map((c) => c.usage.length));
  return ['Commands:', ...SUBCOMMANDS.map((c) => `  ${c.usage.padEnd(width)}  ${c.description}`)].join('\n');
}

/**
 * The error for a first word that names no subcommand (`parley-server rnu`), with the nearest
 * one when it is close enough (at most a third of the word's letters edited, a swap of two
 * neighbours counting as one edit).
 */
export function unknownSubcommandError(word: string): string {
  const nearest = nearestName(
    word,
    SUBCOMMANDS.map((c) => c.name),
  );
  const hint = nearest === undefined ? '' : ` (Did you mean ${nearest}?)`;
  return `error: unknown command '${word}'${hint}\nCommands: ${SUBCOMMANDS.map((c) => c.name).join(', ')}; server options are flags (parley-server --help)\n`;
}
