import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { engine, engineOk, exitCodeOf, IMAGE, logsOf, until200 } from './engine.js';

// The image's contract and failure paths, driven with the container CLI as a user would
// (docs/containers.md). Every container, volume and network made here is removed after the file.

const run = `parley-img-${process.pid}`;
const made: { containers: string[]; volumes: string[]; networks: string[] } = {
  containers: [],
  volumes: [],
  networks: [],
};
let count = 0;
const name = () => {
  const n = `${run}-${++count}`;
  made.containers.push(n);
  return n;
};

afterAll(async () => {
  // Newest first: a container sharing another's network namespace goes before it.
  for (const container of made.containers.reverse()) await engine('rm', '-f', '-t', '0', container);
  for (const volume of made.volumes) await engine('volume', 'rm', '-f', volume);
  for (const network of made.networks) await engine('network', 'rm', '-f', network);
});

/** The host URL of a container's published port. */
async function published(container: string, port = 4010): Promise<string> {
  const line = (await engineOk('port', container, `${port}/tcp`)).split('\n')[0] ?? '';
  return `http://127.0.0.1:${line.split(':').at(-1)}`;
}

describe('the parley-server image', () => {
  it('runs as the unprivileged node user and adds at most 40 MB to node:20-bookworm-slim', async () => {
    const [user, size, base] = await Promise.all([
      engineOk('image', 'inspect', '--format', '{{.Config.User}}', IMAGE),
      engineOk('image', 'inspect', '--format', '{{.Size}}', IMAGE),
      engineOk('image', 'inspect', '--format', '{{.Size}}', 'node:20-bookworm-slim'),
    ]);
    expect(user).toBe('node');
    const added = Number(size) - Number(base);
    console.log(`image ${IMAGE}: ${(added / 1e6).toFixed(1)} MB over node:20-bookworm-slim`);
    expect(added).toBeLessThanOrEqual(40e6);
  });

  it('its HEALTHCHECK follows PORT, and SIGTERM (docker stop -t 1) ends it with exit code 0 before the 1 s kill, without --init', async () => {
    const c = name();
    await engineOk('run', '-d', '--name', c, '-e', 'PORT=5123', '-p', '127.0.0.1::5123', IMAGE);
    await until200(`${await published(c, 5123)}/readyz`);
    // As the engine does (--retries=3): healthy when one of three checks passes. A check that asked
    // port 4010 would fail all three.
    const checks: string[] = [];
    for (let i = 0; i < 3 && checks.at(-1) !== '0 '; i++) {
      const health = await engine('healthcheck', 'run', c);
      checks.push(`${health.code} ${health.stderr.trim()}`);
    }
    expect(checks.at(-1), checks.join('; ')).toBe('0 ');
    // After 1 s the engine sends SIGKILL (exit code 137): exit code 0 says it ended before.
    await engineOk('stop', '-t', '1', c);
    expect(await exitCodeOf(c)).toBe(0);
    expect((await logsOf(c)).stdout).toContain('Parley reference server stopped (SIGTERM)');
  });

  it.each([
    [['--pace', 'bogus'], [], 2, "error: option '--pace <settings>' argument 'bogus' is invalid"],
    [
      [],
      ['-e', 'PARLEY_USERS_FILE=/run/secrets/parley-users'],
      2,
      'parley-server: --users-file /run/secrets/parley-users: ENOENT: no such file or directory',
    ],
    [[], ['-e', 'PARLEY_SCRIPT_FILE=script.json'], 2, 'parley-server: --script script.json: ENOENT'],
  ])(
    'a bad option or a missing mounted file (%j %j) exits %i at once with the CLI message on stderr',
    async (args, env, code, message) => {
      const c = name();
      const result = await engine('run', '--name', c, ...env, IMAGE, ...args);
      expect(result.code).toBe(code);
      expect(result.stderr).toContain(message);
      // It exited (no retry inside, no restart): the engine says so.
      expect(await engineOk('inspect', '--format', '{{.State.Status}} {{.RestartCount}}', c)).toBe(
        'exited 0',
      );
    },
  );

  it('a port in use exits 1 naming the address', async () => {
    const first = name();
    await engineOk('run', '-d', '--name', first, IMAGE);
    const second = name();
    // Same network namespace, same port.
    const result = await engine('run', '--name', second, '--network', `container:${first}`, IMAGE);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('parley-server: cannot listen on 0.0.0.0:4010: listen EADDRINUSE');
    // It shares the first one's namespace: removed first, so the first can be.
    await engineOk('rm', '-f', second);
  });

  it('with --read-only, a proxy reaches its upstream by service name and records to a named volume at stop', async () => {
    const network = `${run}-net`;
    const volume = `${run}-recordings`;
    made.networks.push(network);
    made.volumes.push(volume);
    await engineOk('network', 'create', network);
    const upstream = name();
    await engineOk('run', '-d', '--name', upstream, '--network', network, '--network-alias', 'parley', IMAGE);
    const proxy = name();
    await engineOk(
      'run',
      '-d',
      '--name',
      proxy,
      '--read-only',
      '--network',
      network,
      '-v',
      `${volume}:/parley/recordings`,
      '-p',
      '127.0.0.1::4010',
      '-e',
      'PARLEY_UPSTREAM_URL=http://parley:4010',
      '-e',
      'PARLEY_RECORD_FILE=recordings/cassette.json',
      IMAGE,
    );
    const url = await published(proxy);
    // /readyz is 200 once the upstream answered by its service name (Host: parley:4010).
    await until200(`${url}/readyz`);
    const auth = { authorization: 'Bearer parley-demo-token', 'content-type': 'application/json' };
    const created = await fetch(`${url}/v1/sessions`, { method: 'POST', headers: auth });
    expect(created.status).toBe(201);
    const { sessionId } = (await created.json()) as { sessionId: string };
    const reply = await fetch(`${url}/v1/messages/${sessionId}`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ content: 'Recorded through a read-only container' }),
    });
    expect(reply.status).toBe(200);
    await engineOk('stop', '-t', '5', proxy);
    expect(await exitCodeOf(proxy)).toBe(0);
    const cassette = await engineOk(
      'run',
      '--rm',
      '-v',
      `${volume}:/r:ro`,
      '--entrypoint',
      'cat',
      IMAGE,
      '/r/cassette.json',
    );
    expect(cassette).toContain('Recorded through a read-only container');
  });

  it('a cassette folder the node user cannot write, or a read-only root without a volume, exits 2 at start saying so', async () => {
    const rootOwned = await mkdtemp(join(tmpdir(), 'parley-ro-'));
    const upstream = ['-e', 'PARLEY_UPSTREAM_URL=http://127.0.0.1:9'];
    const notMine = await engine(
      'run',
      '--name',
      name(),
      '-v',
      `${rootOwned}:/parley/recordings`,
      ...upstream,
      IMAGE,
      '--record',
      'recordings/cassette.json',
    );
    expect(notMine.code).toBe(2);
    expect(notMine.stderr).toContain(
      'parley-server: --record recordings/cassette.json: cannot be written when the server stops: no write permission for /parley/recordings',
    );
    const readOnly = await engine(
      'run',
      '--name',
      name(),
      '--read-only',
      ...upstream,
      IMAGE,
      '--record',
      'cassette.json',
    );
    expect(readOnly.code).toBe(2);
    expect(readOnly.stderr).toContain('no write permission for /parley (a read-only file system)');
  });
});
