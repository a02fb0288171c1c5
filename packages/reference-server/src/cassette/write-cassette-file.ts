import { replaceFile, temporaryFileOwner } from '../utils/replace-file.js';
import { type NodeFs, nodeFs, readCassetteFile } from './cassette-file.js';
import type { Cassette } from './cassette-format.js';
import { processIsGone, withFileLock } from './cassette-lock.js';
import { formatCassette } from './cassette-text.js';

// The cassette's writer, loaded when a cassette is first written (a recording, or what record-missing
// added, when the server closes): a page that only replays does not carry it.

/**
 * Writes the cassette as its stable text, making the folder if needed, holding the cassette's lock
 * (`withFileLock`: writers in other processes take turns). The text goes to a temporary file beside
 * it first, which then replaces the file in one rename (`replaceFile`): a crash or a full disk midway
 * leaves the old file as it was (and no half-written cassette), never a mix of the two. Temporary
 * files a crashed writer left beside it are removed.
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
  const dir = path.replace(/[\\/][^\\/]*$/, '');
  if (dir !== path && dir !== '') await fs.promises.mkdir(dir, { recursive: true });
  return withFileLock(fs, path, async () => {
    await removeLeftTemporaries(fs, path);
    const current = how.read !== false && fs.existsSync(path) ? readCassetteFile(path) : undefined;
    const next = update(current);
    if (next === undefined) return undefined;
    await replaceFile(fs, path, formatCassette(next));
    return next;
  });
}

/** Temporary files of writers that are gone (a crash before the rename): `weather.json.4242-k3j2.tmp`. */
async function removeLeftTemporaries(fs: NodeFs, path: string): Promise<void> {
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
    const pid = temporaryFileOwner(base, name);
    if (pid === undefined) continue;
    // A temporary file is always of a writer on this machine: its pid can be checked.
    if (processIsGone(pid)) {
      await fs.promises.rm(`${dir}/${name}`, { force: true });
    }
  }
}
