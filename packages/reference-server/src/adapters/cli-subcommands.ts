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
  let nearest: { name: string; distance: number } | undefined;
  for (const { name } of SUBCOMMANDS) {
    const distance = editDistance(word.toLowerCase(), name);
    if (distance <= Math.max(1, Math.floor(name.length / 3)) && distance < (nearest?.distance ?? Infinity))
      nearest = { name, distance };
  }
  const hint = nearest === undefined ? '' : ` (Did you mean ${nearest.name}?)`;
  return `error: unknown command '${word}'${hint}\nCommands: ${SUBCOMMANDS.map((c) => c.name).join(', ')}; server options are flags (parley-server --help)\n`;
}

/** Edits (insert, delete, replace, swap of neighbours) that turn `a` into `b`. */
function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number) => d[i]?.[j] ?? Infinity;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, at(i - 2, j - 2) + 1);
      (d[i] as number[])[j] = best;
    }
  }
  return at(a.length, b.length);
}
