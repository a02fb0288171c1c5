import {
  type Cassette,
  emptyCassette,
  InvalidCassetteError,
  parseCassette,
  parseCassetteText,
} from './cassette-format.js';

/** Node's `fs` module. */
export type NodeFs = typeof import('node:fs');

// Reached through `process.getBuiltinModule`, so the server stays importable where there is no file
// system (msw in a browser): only a cassette given as a path needs one.
export function nodeFs(what: string): NodeFs {
  const fs = (
    globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }
  ).process?.getBuiltinModule?.('node:fs') as NodeFs | undefined;
  if (fs === undefined) {
    throw new Error(
      `${what} needs a file system (Node 20.16 or later); pass a parsed cassette instead of a path`,
    );
  }
  return fs;
}

/** Whether a cassette file exists at `path`. */
export function cassetteFileExists(path: string): boolean {
  return nodeFs(`Cassette ${path}`).existsSync(path);
}

/** Reads and validates a cassette file; a missing, unreadable or invalid file throws an error naming it. */
export function readCassetteFile(path: string): Cassette {
  let text: string;
  try {
    text = nodeFs(`Cassette ${path}`).readFileSync(path, 'utf8');
  } catch (error) {
    throw new InvalidCassetteError(path, [(error as Error).message], { cause: error });
  }
  return parseCassetteText(text, path);
}

/** The replay's cassette: parsed, read from its file, or (record-missing, no file yet) empty. */
export function loadCassette(config: {
  cassette: string | Cassette;
  name?: string | undefined;
  recordMissing?: unknown;
}): Cassette {
  const given = config.cassette;
  // A parsed cassette is checked as a file is, so that a bad one fails the server's creation too.
  if (typeof given !== 'string') return parseCassette(given, config.name ?? 'given in code');
  if (config.recordMissing && !cassetteFileExists(given)) return emptyCassette();
  return readCassetteFile(given);
}
