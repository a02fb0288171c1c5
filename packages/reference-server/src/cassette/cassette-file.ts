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
 * Writes the cassette as its stable text, making the folder if needed, holding the cassette's lock
 * (`withFileLock`: writers in other processes take turns). The text goes to a temporary file beside
 * it first, which then replaces the file in one rename: a crash or a full disk midway leaves the old
 * file as it was (and no half-written cassette), never a mix of the two. Temporary files a crashed
 * writer left beside it are removed.
 */
export async function writeCassetteFile(path: string, cassette: Cassette): Promise<void> {
  await updateCassetteFile(path, () => cassette, { read: false });
}

/**
 * Reads the cassette file (undefined when there is none), and writes what `update` makes of it,
 * both under the cassette's lock, so that two processes that add to one cassette at once each see
 * what the other wrote and neither loses its part. `update` returning undefined leaves the file as
 * it is. Returns what was written.
 */
export async function updateCassetteFile(
  path: string,
  update: (current: Cassette | undefined) => Cassette | undefined,
  how: { read?: boolean } = {},
): Promise<Cassette | undefined> {
  const fs = nodeFs(`Cassette ${path}`);
  // Loaded when first written: a page that only replays does not carry the writer.
  const [{ formatCassette }, { withFileLock }] = await Promise.all([
    import('./cassette-text.js'),
    import('./cassette-lock.js'),
  ]);
  const dir = path.replace(/[\\/][^\\/]*$/, '');
  if (dir !== path && dir !== '') await fs.promises.mkdir(dir, { recursive: true });
  return withFileLock(fs, path, async () => {
    await removeLeftTemporaries(fs, path);
    const current = how.read !== false && fs.existsSync(path) ? readCassetteFile(path) : undefined;
    const next = update(current);
    if (next === undefined) return undefined;
    const text = formatCassette(next);
    // In the same folder, so the rename stays on one file system (and so is atomic); named after
    // this process, so that a later writer knows whether it is still at work.
    const temporary = `${path}.${process.pid}-${Math.random().toString(36).slice(2)}${TEMPORARY_SUFFIX}`;
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
    return next;
  });
}

const TEMPORARY_SUFFIX = '.tmp';

/** Temporary files of writers that are gone (a crash before the rename): `weather.json.4242-k3j2.tmp`. */
async function removeLeftTemporaries(fs: NodeFs, path: string): Promise<void> {
  const { processIsGone } = await import('./cassette-lock.js');
  const slash = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  const dir = slash < 0 ? '.' : path.slice(0, slash) || '/';
  const base = path.slice(slash + 1);
  let names: string[];
  try {
    names = await fs.promises.readdir(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const pid = new RegExp(`^${escapeRegExp(base)}\\.(\\d+)-[a-z0-9]*\\${TEMPORARY_SUFFIX}$`).exec(name)?.[1];
    if (pid === undefined) continue;
    // A temporary file is always of a writer on this machine: its pid can be checked.
    if (processIsGone(Number(pid))) {
      await fs.promises.rm(`${dir}/${name}`, { force: true });
    }
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
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
