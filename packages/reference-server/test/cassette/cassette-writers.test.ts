import { type ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withFileLock } from '../../src/cassette/cassette-lock.js';
import { formatCassette } from '../../src/cassette/cassette-text.js';
import { writeCassetteFile } from '../../src/cassette/write-cassette-file.js';
import { cassetteOf } from './fixtures/cassette-writer.js';

const dir = mkdtempSync(join(tmpdir(), 'parley-writers-'));
const bundle = join(dir, 'cassette-writer.mjs');
// The writer bundled once into one file: each process starts in a fraction of what a TypeScript
// loader takes, so eight of them start together quickly.
beforeAll(async () => {
  await build({
    entryPoints: [fileURLToPath(new URL('./fixtures/cassette-writer.ts', import.meta.url))],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile: bundle,
    conditions: ['@parley/source'],
    logLevel: 'silent',
  });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function writer(args: string[]): ChildProcess {
  return spawn(process.execPath, [bundle, ...args], { stdio: ['pipe', 'pipe', 'inherit'] });
}

const exited = (child: ChildProcess) =>
  new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );

const testsIn = (file: string) =>
  (JSON.parse(readFileSync(file, 'utf8')) as { sessions: Array<{ test: string }> }).sessions.map(
    (s) => s.test,
  );

describe('one cassette written by several processes at once', () => {
  it('8 processes recording their own tests into one cassette (per: test) at the same moment keep every test', async () => {
    const file = join(dir, 'shared.json');
    writeFileSync(file, formatCassette(cassetteOf('kept from before')));
    const names = Array.from({ length: 8 }, (_, i) => `worker ${i + 1}`);
    const children = names.map((name) => writer(['record', name, file]));
    // Every process is up and waiting before any writes: they all write at once.
    await Promise.all(children.map((child) => new Promise((resolve) => child.stdout?.once('data', resolve))));
    for (const child of children) child.stdin?.end('go\n');
    const ends = await Promise.all(children.map(exited));
    expect(ends.every((end) => end.code === 0)).toBe(true);
    expect(testsIn(file).sort()).toEqual(['kept from before', ...names].sort());
    expect(readdirSync(dir).filter((name) => name.startsWith('shared.json.'))).toEqual([]);
  });

  it('a writer killed mid-write leaves the old file whole; the next write takes its lock over and removes its temporary file', async () => {
    const file = join(dir, 'crashed.json');
    const before = formatCassette(cassetteOf('before the crash'));
    writeFileSync(file, before);
    const crash = await exited(writer(['crash', file]));
    expect(crash.signal).toBe('SIGKILL');
    // What the crash left: the lock and a half-written temporary file, beside the untouched cassette.
    expect(readFileSync(file, 'utf8')).toBe(before);
    expect(existsSync(`${file}.lock`)).toBe(true);
    expect(readdirSync(dir).filter((name) => /^crashed\.json\.\d+-half\.tmp$/.test(name))).toHaveLength(1);
    await writeCassetteFile(file, cassetteOf('after the crash'));
    expect(testsIn(file)).toEqual(['after the crash']);
    expect(readdirSync(dir).filter((name) => name.startsWith('crashed.json.'))).toEqual([]);
  });

  it('a lock a live process holds is waited for, then the write fails naming the lock file, and the cassette is as it was', async () => {
    const file = join(dir, 'held.json');
    const before = formatCassette(cassetteOf('held'));
    writeFileSync(file, before);
    await withFileLock(fs, file, async () => {
      await expect(
        withFileLock(fs, file, async () => writeFileSync(file, 'never'), { waitMs: 50 }),
      ).rejects.toThrow(
        `Cassette ${file}: another writer has held ${file}.lock for over 0 s; if no test run is writing it, delete that file`,
      );
    });
    expect(readFileSync(file, 'utf8')).toBe(before);
    expect(existsSync(`${file}.lock`)).toBe(false);
  });

  it('a lock file that is not a lock (not its JSON) is taken over', async () => {
    const file = join(dir, 'junk-lock.json');
    writeFileSync(`${file}.lock`, 'not a lock');
    await writeCassetteFile(file, cassetteOf('written'));
    expect(testsIn(file)).toEqual(['written']);
    expect(existsSync(`${file}.lock`)).toBe(false);
  });
});

describe('a lock left by a process that died, taken over by two writers at once', () => {
  it('the second taker never puts back, or moves, the lock the first one now holds: each writes in turn and no lock is left', async () => {
    const file = join(dir, 'two-takers.json');
    const lock = `${file}.lock`;
    const { hostname } = await import('node:os');
    // A lock of a pid no process has.
    writeFileSync(lock, JSON.stringify({ pid: 2 ** 30, host: hostname(), time: Date.now(), nonce: 'gone' }));
    const gate = () => {
      let open!: () => void;
      const opened = new Promise<void>((resolve) => {
        open = resolve;
      });
      return { open, opened };
    };
    const aHolds = gate();
    const bStepped = gate();
    const aDone = gate();
    // B's file system: B reads the left lock as A does; its next step waits until A holds the
    // lock, and a lock it would put back waits until A is done with it.
    let seen = false;
    let stepped = false;
    const afterSeen = async <T>(step: () => Promise<T>): Promise<T> => {
      if (!seen || stepped) return step();
      stepped = true;
      await aHolds.opened;
      try {
        return await step();
      } finally {
        bStepped.open();
      }
    };
    const fsB = {
      ...fs,
      promises: {
        ...fs.promises,
        readFile: (async (path: fs.PathLike, options: unknown) => {
          const text = await fs.promises.readFile(path, options as BufferEncoding);
          if (path === lock) seen = true;
          return text;
        }) as typeof fs.promises.readFile,
        writeFile: ((...args: Parameters<typeof fs.promises.writeFile>) =>
          afterSeen(() => fs.promises.writeFile(...args))) as typeof fs.promises.writeFile,
        rename: (from: fs.PathLike, to: fs.PathLike) => afterSeen(() => fs.promises.rename(from, to)),
        link: async (from: fs.PathLike, to: fs.PathLike) => {
          if (to === lock && String(from).endsWith('.left')) await aDone.opened;
          return fs.promises.link(from, to);
        },
      },
    } as typeof fs;
    const order: string[] = [];
    const a = withFileLock(fs, file, async () => {
      order.push('a');
      aHolds.open();
      // B takes its next step while A holds the lock.
      await bStepped.opened;
    }).finally(() => aDone.open());
    const b = withFileLock(
      fsB,
      file,
      async () => {
        order.push('b');
      },
      { waitMs: 2_000 },
    );
    await Promise.all([a, b]);
    expect(order).toEqual(['a', 'b']);
    expect(existsSync(lock)).toBe(false);
  });
});
