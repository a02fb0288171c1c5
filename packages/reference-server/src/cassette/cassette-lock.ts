type NodeFs = typeof import('node:fs');

/** How long a writer waits for another's lock before it gives up, naming the lock file. */
export const LOCK_WAIT_MS = 30_000;
/** A lock of another machine (its pid cannot be checked) counts as left behind after this long. */
export const FOREIGN_LOCK_STALE_MS = 120_000;

/** What a lock file holds: who took it, where and when, and a nonce that tells two takes apart. */
interface LockOwner {
  pid: number;
  host: string;
  time: number;
  nonce: string;
}

/**
 * Runs `work` holding the lock of `path` (the file `path.lock`, made with O_EXCL): writers of one
 * cassette in several processes take turns, so each reads what the one before wrote. A lock whose
 * process is gone (a crash, a kill) is taken over at once; one of another machine after
 * {@link FOREIGN_LOCK_STALE_MS}. A lock held longer than {@link LOCK_WAIT_MS} by a live process
 * fails the write with an error naming the lock file, and the cassette is left as it was.
 */
export async function withFileLock<T>(
  fs: NodeFs,
  path: string,
  work: () => Promise<T>,
  options: { waitMs?: number } = {},
): Promise<T> {
  const lock = `${path}.lock`;
  const me: LockOwner = { pid: process.pid, host: hostName(), time: Date.now(), nonce: nonce() };
  const text = JSON.stringify(me);
  const deadline = Date.now() + (options.waitMs ?? LOCK_WAIT_MS);
  for (let delay = 5; ; delay = Math.min(delay * 2, 100)) {
    if (await createExclusive(fs, lock, text, me.nonce)) break;
    if (await takeOverIfLeft(fs, lock)) continue;
    if (Date.now() > deadline) {
      throw new Error(
        `Cassette ${path}: another writer has held ${lock} for over ${Math.round((options.waitMs ?? LOCK_WAIT_MS) / 1000)} s; ` +
          'if no test run is writing it, delete that file',
      );
    }
    await new Promise((resolve) => setTimeout(resolve, delay + Math.random() * delay));
  }
  try {
    return await work();
  } finally {
    await releaseIfMine(fs, lock, me.nonce);
  }
}

/** Whether a process that wrote a lock or a temporary file is gone: a pid of this machine that does not run. */
export function ownerIsGone(owner: { pid: number; host: string; time: number }): boolean {
  if (owner.host !== hostName()) return Date.now() - owner.time > FOREIGN_LOCK_STALE_MS;
  return processIsGone(owner.pid);
}

/** Whether no process of this machine has this pid. */
export function processIsGone(pid: number): boolean {
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    // EPERM: the process runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/**
 * Makes `file` holding `text` unless it exists (false then). The text is written before the file
 * has its name: a reader never sees it half written.
 */
async function createExclusive(fs: NodeFs, file: string, text: string, id: string): Promise<boolean> {
  const mine = `${file}.${id}`;
  try {
    await fs.promises.writeFile(mine, text, { flag: 'wx' });
    try {
      await fs.promises.link(mine, file);
    } finally {
      await fs.promises.rm(mine, { force: true });
    }
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return false;
  }
}

/**
 * Removes a lock left by a process that is gone; true when the caller should try again at once.
 * Takers go one at a time (the file `lock.takeover`), and each reads the lock again before removing
 * it: a lock another taker took meanwhile is never moved or removed (it would be lost, or, put back
 * after its owner released it, left for good).
 */
async function takeOverIfLeft(fs: NodeFs, lock: string): Promise<boolean> {
  const owner = await readOwner(fs, lock);
  if (owner === undefined || !ownerIsGone(owner)) return owner === undefined;
  const takeover = `${lock}.takeover`;
  const me = nonce();
  const text = JSON.stringify({ pid: process.pid, host: hostName(), time: Date.now(), nonce: me });
  if (!(await createExclusive(fs, takeover, text, me))) {
    // Another taker is at it; one that died at it left its file, which goes.
    const taker = await readOwner(fs, takeover);
    if (taker !== undefined && ownerIsGone(taker)) await releaseIfMine(fs, takeover, taker.nonce);
    return false;
  }
  try {
    const again = await readOwner(fs, lock);
    if (again === undefined || again.nonce === owner.nonce) await fs.promises.rm(lock, { force: true });
  } finally {
    await fs.promises.rm(takeover, { force: true });
  }
  return true;
}

async function releaseIfMine(fs: NodeFs, lock: string, mine: string): Promise<void> {
  const owner = await readOwner(fs, lock);
  if (owner?.nonce === mine) await fs.promises.rm(lock, { force: true });
}

/** The lock's owner; undefined when there is no lock (gone meanwhile) or it cannot be read. */
async function readOwner(fs: NodeFs, file: string): Promise<LockOwner | undefined> {
  try {
    const owner = JSON.parse(await fs.promises.readFile(file, 'utf8')) as Partial<LockOwner>;
    if (typeof owner.pid !== 'number' || typeof owner.nonce !== 'string') return LEFT_UNREADABLE;
    return {
      pid: owner.pid,
      host: String(owner.host),
      time: Number(owner.time),
      nonce: owner.nonce,
    };
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? undefined : LEFT_UNREADABLE;
  }
}

// A lock that is not ours to read (not JSON): treated as one of a process long gone.
const LEFT_UNREADABLE: LockOwner = { pid: 0, host: '', time: 0, nonce: '' };

function hostName(): string {
  const os = (
    globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }
  ).process?.getBuiltinModule?.('node:os') as typeof import('node:os') | undefined;
  return os?.hostname() ?? '';
}

function nonce(): string {
  return `${process.pid}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
}
