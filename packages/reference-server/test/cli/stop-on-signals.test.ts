import { EventEmitter } from 'node:events';
import { type RunningServer, startServer, stopOnSignals } from '@parley/reference-server/node';
import { describe, expect, it } from 'vitest';

function harness(server: Promise<RunningServer | undefined>) {
  const source = new EventEmitter();
  const out: string[] = [];
  const err: string[] = [];
  const exits: number[] = [];
  let exited: () => void = () => {};
  const exitedOnce = new Promise<void>((resolve) => {
    exited = resolve;
  });
  const remove = stopOnSignals(
    server,
    { stdout: (t) => out.push(t), stderr: (t) => err.push(t) },
    (code) => {
      exits.push(code);
      exited();
    },
    source,
  );
  return { source, out, err, exits, exitedOnce, remove };
}

describe('stopping on SIGINT and SIGTERM', () => {
  it('the first signal closes the server, prints one line and exits 0; a second one is ignored', async () => {
    const running = await startServer({ port: 0 });
    let closes = 0;
    const close = running.close;
    running.close = () => {
      closes++;
      return close();
    };
    const h = harness(Promise.resolve(running));
    h.source.emit('SIGINT');
    h.source.emit('SIGINT');
    h.source.emit('SIGTERM');
    await h.exitedOnce;
    expect(closes).toBe(1);
    expect(h.exits).toEqual([0]);
    expect(h.out).toEqual(['Parley reference server stopped (SIGINT)\n']);
    expect(h.err).toEqual([]);
    await expect(fetch(`${running.url}/healthz`)).rejects.toThrow();
  });

  it('a signal during startup stops the server once it runs', async () => {
    let started: (running: RunningServer) => void = () => {};
    const h = harness(
      new Promise<RunningServer>((resolve) => {
        started = resolve;
      }),
    );
    h.source.emit('SIGTERM');
    expect(h.exits).toEqual([]);
    const running = await startServer({ port: 0 });
    started(running);
    await h.exitedOnce;
    expect(h.exits).toEqual([0]);
    expect(h.out).toEqual(['Parley reference server stopped (SIGTERM)\n']);
    await expect(fetch(`${running.url}/healthz`)).rejects.toThrow();
  });

  it('a failure to close is a message and exit code 1', async () => {
    const running = await startServer({ port: 0 });
    const close = running.close;
    running.close = () => Promise.reject(new Error('stuck'));
    const h = harness(Promise.resolve(running));
    h.source.emit('SIGTERM');
    await h.exitedOnce;
    expect(h.exits).toEqual([1]);
    expect(h.err.join('')).toContain('error while stopping: stuck');
    await close();
  });

  it('when the server never started, a signal prints nothing and exits nothing; remove() drops the listeners', async () => {
    const h = harness(Promise.resolve(undefined));
    h.source.emit('SIGINT');
    await new Promise((resolve) => setImmediate(resolve));
    expect(h.exits).toEqual([]);
    expect(h.out).toEqual([]);
    h.remove();
    expect(h.source.listenerCount('SIGINT') + h.source.listenerCount('SIGTERM')).toBe(0);
  });
});
