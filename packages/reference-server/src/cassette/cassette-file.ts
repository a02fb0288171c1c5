import {
  type Cassette,
  emptyCassette,
  InvalidCassetteError,
  parseCassette,
  parseCassetteText,
} from './cassette-format.js';

type NodeFs = typeof import('node:fs');

// Reached through `process.getBuiltinModule`, so the server stays importable where there is no file
// system (msw in a browser): only a cassette given as a path needs one.
function nodeFs(what: string): NodeFs {
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

/**
 * Writes the cassette as its stable text, making the folder if needed. The text goes to a temporary
 * file beside it first, which then replaces the file in one rename: a crash or a full disk midway
 * leaves the old file as it was (and no half-written cassette), never a mix of the two.
 */
export async function writeCassetteFile(path: string, cassette: Cassette): Promise<void> {
  const fs = nodeFs(`Cassette ${path}`);
  // Loaded when first written: a page that only replays does not carry the writer.
  const { formatCassette } = await import('./cassette-text.js');
  const text = formatCassette(cassette);
  const dir = path.replace(/[\\/][^\\/]*$/, '');
  if (dir !== path && dir !== '') await fs.promises.mkdir(dir, { recursive: true });
  // In the same folder, so the rename stays on one file system (and so is atomic).
  const temporary = `${path}.${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}.tmp`;
  try {
    const file = await fs.promises.open(temporary, 'wx');
    try {
      await file.writeFile(text, 'utf8');
      await file.sync();
    } finally {
      await file.close();
    }
    await fs.promises.rename(temporary, path);
  } catch (error) {
    await fs.promises.rm(temporary, { force: true });
    throw error;
  }
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
