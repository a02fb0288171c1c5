/** Node's `fs` module (given by the caller, so that this file imports nothing of its own). */
type NodeFs = typeof import('node:fs');

const TEMPORARY_SUFFIX = '.tmp';

/**
 * Replaces the file at `path` with `text` in one step: the text goes to a temporary file beside it
 * (`report.json.4242-k3j2.tmp`), is flushed to disk, and then takes the file's name in one rename.
 * A run that fails or is killed midway (a full disk, a crash) leaves the old file as it was, never a
 * half-written one; a failed write removes its temporary file and rejects with the error.
 */
export async function replaceFile(fs: NodeFs, path: string, text: string): Promise<void> {
  // In the same folder, so the rename stays on one file system (and so is atomic); named after this
  // process, so that a later writer knows whether it is still at work (temporaryFileOwner).
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
}

/**
 * The pid of the process whose {@link replaceFile} of the file named `base` left the temporary file
 * `name` (`weather.json.4242-k3j2.tmp`: 4242); undefined when `name` is not one of them.
 */
export function temporaryFileOwner(base: string, name: string): number | undefined {
  const pid = new RegExp(`^${escapeRegExp(base)}\\.(\\d+)-[a-z0-9]*\\${TEMPORARY_SUFFIX}$`).exec(name)?.[1];
  return pid === undefined ? undefined : Number(pid);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
