import { EventEmitter } from 'node:events';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { runWithCommand } from '../../src/adapters/cli-run.js';
import { SIGNAL_DEBOUNCE_MS } from '../../src/adapters/cli-run-debounce.js';
import { relayStopSignals } from '../../src/adapters/cli-run-signals.js';

// `parley-server run` in this process: the signals come from an EventEmitter and the debounce
// window is measured on a clock the test moves; the command and its children are real processes.

/** Whether `pid` runs: a zombie (ended, left for an init that may never reap it) does not. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  if (process.platform !== 'linux') return true;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !['Z', 'X'].includes(stat.slice(stat.lastIndexOf(')') + 2)[0] ?? '');
  } catch {
    return false; // reaped while we looked
  }
}

/** Runs `sh -c script` under `parley-server run`; `$PIDS` is a file the script writes pids to. */
function run(script: string) {
  const pids = join(mkdtempSync(join(tmpdir(), 'parley-run-group-')), 'pids');
  const signals = new EventEmitter();
  let now = 0;
  const err: string[] = [];
  const status = runWithCommand(
    ['--port', '0', '--', 'sh', '-c', script],
    { stdout: () => {}, stderr: (text) => err.push(text) },
    { signals, now: () => now, env: { ...process.env, PORT: '', HOST: '', PARLEY_USERS: '', PIDS: pids } },
  );
  return {
    status,
    signals,
    stderr: () => err.join(''),
    advance: (ms: number) => {
      now += ms;
    },
    /** The pids the script wrote, once it wrote `count` of them. */
    pids: async (count: number) =>
      vi.waitFor(
        () => {
          const list = existsSync(pids) ? readFileSync(pids, 'utf8').trim().split('\n') : [];
          if (list.length < count) throw new Error(`waiting for ${count} pids`);
          return list.map(Number);
        },
        { timeout: 20_000, interval: 20 },
      ),
  };
}

describe('parley-server run owns its command', () => {
  it('a signal delivered twice within the debounce window counts once: the command shuts down, status 130', async () => {
    // The shell needs a moment to shut down; counted twice, the second SIGINT would SIGKILL it (137).
    // Its background `sleep` ignores SIGINT (a non-interactive shell's jobs do): SIGTERM ends it.
    const r = run(`trap 'sleep 0.2; exit 0' INT; sleep 300 & echo $! >> "$PIDS"; echo $$ >> "$PIDS"; wait`);
    const [sleep = 0, shell = 0] = await r.pids(2);
    r.signals.emit('SIGINT');
    r.advance(SIGNAL_DEBOUNCE_MS - 1);
    r.signals.emit('SIGINT');
    expect(await r.status).toBe(130);
    expect(r.stderr()).toContain('Parley reference server stopped (SIGINT, the command exited with 0)');
    expect([alive(sleep), alive(shell)]).toEqual([false, false]);
  }, 30_000);

  it('a second signal after the window kills the whole group, even processes that ignore signals; status 143', async () => {
    const r = run(`trap '' INT TERM; sleep 300 & echo $! >> "$PIDS"; echo $$ >> "$PIDS"; wait`);
    const [sleep = 0, shell = 0] = await r.pids(2);
    r.signals.emit('SIGTERM');
    r.advance(SIGNAL_DEBOUNCE_MS + 1);
    r.signals.emit('SIGTERM');
    expect(await r.status).toBe(143);
    expect(r.stderr()).toContain('(SIGTERM, the command exited with 137)');
    expect([alive(sleep), alive(shell)]).toEqual([false, false]);
  }, 30_000);

  it('nothing the command started outlives the run: a background process it left is ended', async () => {
    const r = run(`sleep 300 & echo $! >> "$PIDS"; exit 4`);
    expect(await r.status).toBe(4);
    const [sleep = 0] = await r.pids(1);
    expect(alive(sleep)).toBe(false);
  }, 30_000);
});

describe('a command that cannot start', () => {
  it('an empty command word (an unset variable: run -- "$CMD") is status 127, and the server is stopped', async () => {
    const err: string[] = [];
    const status = await runWithCommand(
      ['--port', '0', '--', ''],
      { stdout: () => {}, stderr: (text) => err.push(text) },
      { signals: new EventEmitter(), env: { ...process.env, PORT: '', HOST: '', PARLEY_USERS: '' } },
    );
    expect(status).toBe(127);
    expect(err.join('')).toContain('parley-server run: cannot run');
    expect(err.join('')).toContain('Parley reference server stopped');
  });
});

describe('counting stop signals', () => {
  it('the first signal is passed on; any other within the window is the same one; a later one kills', () => {
    const source = new EventEmitter();
    let now = 1_000;
    const seen: string[] = [];
    const relay = relayStopSignals(
      source,
      { stop: (signal) => seen.push(signal), kill: () => seen.push('SIGKILL') },
      () => now,
    );
    source.emit('SIGTERM');
    source.emit('SIGINT');
    now += SIGNAL_DEBOUNCE_MS;
    source.emit('SIGTERM');
    expect(seen).toEqual(['SIGTERM']);
    now += 1;
    source.emit('SIGINT');
    expect(seen).toEqual(['SIGTERM', 'SIGKILL']);
    expect(relay.first).toBe('SIGTERM');
    relay.dispose();
    expect(source.listenerCount('SIGINT') + source.listenerCount('SIGTERM')).toBe(0);
  });
});
