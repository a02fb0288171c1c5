// Installed-server test (after `pnpm build`): the packed @parley/protocol and
// @parley/reference-server installed with npm into an empty directory outside the workspace (no
// pnpm, no workspace links), then the `parley-server` bin run from there as a user runs it: with
// `npx` and directly: readiness on GET /healthz, one session and one message, and a clean stop
// on Ctrl+C (SIGINT to the process group) and on SIGTERM (exit code 0, one line); and
// `npx parley-server --upstream` in front of the installed server: the same through the checking
// proxy, its report line on stop. Then, as a CI script runs it (a non-interactive bash):
// `npx parley-server run -- <command>` exits with the command's status, and a server started with
// `npx parley-server &` stops when that `$!` (npx, which passes no signal on) gets SIGTERM.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createProject, packWorkspace } from './pack-workspace.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const { version } = JSON.parse(readFileSync(join(ROOT, 'packages/reference-server/package.json'), 'utf8'));
const TOKEN = 'parley-demo-token';
const started = Date.now();
const dir = mkdtempSync(join(tmpdir(), 'parley-installed-server-'));
const app = join(dir, 'app');
const step = (what) =>
  console.log(`[installed-server] ${what} (${((Date.now() - started) / 1000).toFixed(0)} s)`);
// The server's own settings must not come from the CI's environment.
const env = {
  ...process.env,
  PORT: '',
  HOST: '',
  PARLEY_USERS: '',
  PARLEY_UPSTREAM_URL: '',
  PARLEY_UPSTREAM_TOKEN: '',
};

function check(condition, message) {
  if (!condition) throw new Error(`installed-server: ${message}`);
}

/** stderr without npm's own notices about the machine's npm config. */
const ownErrors = (text) =>
  text
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('npm warn'))
    .join('\n');

/**
 * Starts the server from the app directory (in a process group of its own, as a terminal runs a
 * command), waits for its URL and returns it with the process.
 */
async function startServer(command, args) {
  const child = spawn(command, [...args, '--port', '0'], {
    cwd: app,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  // 'close': the process has exited and every process holding its output pipes is gone too.
  const closed = new Promise((resolve) => child.once('close', (code, signal) => resolve({ code, signal })));
  const deadline = Date.now() + 60_000;
  for (;;) {
    const url = /listening on (http:\/\/\S+)/.exec(stdout)?.[1];
    if (url !== undefined) return { child, url, closed, output: () => ({ stdout, stderr }) };
    if (child.exitCode !== null || Date.now() > deadline) {
      killGroup(child, 'SIGKILL');
      throw new Error(`installed-server: the server did not start:\n${stdout}\n${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function killGroup(child, signal) {
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

/** Polls GET /healthz until it answers 200, as a container's readiness check would. */
async function waitUntilReady(url) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const res = await fetch(`${url}/healthz`).catch(() => undefined);
    if (res?.status === 200) return res.json();
    check(Date.now() < deadline, `GET /healthz never answered 200 (last: ${res?.status})`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Readiness, one session, one message. */
async function converse(url) {
  const health = await waitUntilReady(url);
  check(health.status === 'ok', `GET /healthz answered ${JSON.stringify(health)}`);
  const headers = { authorization: `Bearer ${TOKEN}` };
  const created = await fetch(`${url}/v1/sessions`, { method: 'POST', headers });
  check(created.status === 201, `POST /v1/sessions answered ${created.status}`);
  const { sessionId } = await created.json();
  const sent = await fetch(`${url}/v1/messages/${sessionId}`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ content: '/say It works from the tarball.' }),
  });
  check(sent.status === 200, `POST /v1/messages answered ${sent.status}`);
  const reply = await sent.json();
  const text = reply.messages.at(-1)?.content?.[0]?.text;
  check(text === 'It works from the tarball.', `unexpected reply ${JSON.stringify(reply)}`);
  return `${url}/healthz ok, session ${sessionId} answered "${text}"`;
}

/** The server printed its start lines (the listening line and one indented line), then exactly the stop line, and no error. */
function checkStopped(server, signal) {
  const { stdout, stderr } = server.output();
  const lines = stdout.split('\n').filter((line) => line.trim() !== '');
  check(
    lines.length === 3 &&
      lines[0].startsWith('Parley reference server listening on ') &&
      lines[1].startsWith('  journal and control routes: off') &&
      lines[2] === `Parley reference server stopped (${signal})`,
    `expected the start lines and the stop line, got:\n${stdout}\n${stderr}`,
  );
  check(ownErrors(stderr) === '', `stderr:\n${stderr}`);
}

const servers = [];
try {
  step(`packing into ${dir}`);
  const tarballs = packWorkspace(['@parley/protocol', '@parley/reference-server'], join(dir, 'tarballs'));
  step('installing the tarballs with npm into an empty directory');
  createProject({ dir: app, tarballs, name: 'parley-installed-server' });

  for (const command of ['parley-server', '@parley/reference-server']) {
    // `--no`: never fetch a package of that name from the registry; `--`: the rest is the command's.
    const printed = execFileSync('npx', ['--no', '--', command, '--version'], {
      cwd: app,
      env,
      encoding: 'utf8',
    });
    check(printed.trim() === version, `npx ${command} --version printed ${JSON.stringify(printed)}`);
  }
  step(`npx parley-server --version and npx @parley/reference-server --version print ${version}`);

  // 1. `npx parley-server`, stopped as Ctrl+C stops it: SIGINT to the whole process group. npx and
  //    its shell die of the signal (npm's behaviour); the server must close, print its line and
  //    leave no process behind.
  const viaNpx = await startServer('npx', ['--no', '--', 'parley-server']);
  servers.push(viaNpx);
  step(`npx parley-server: ${await converse(viaNpx.url)}`);
  killGroup(viaNpx.child, 'SIGINT');
  await viaNpx.closed;
  checkStopped(viaNpx, 'SIGINT');
  check(
    await fetch(`${viaNpx.url}/healthz`).then(
      () => false,
      () => true,
    ),
    'the server still answers after Ctrl+C',
  );
  step('npx parley-server, Ctrl+C (SIGINT to the group): the server stopped with one line');

  // 2. The installed bin run directly, as a container's command, stopped with SIGTERM.
  const direct = await startServer(join(app, 'node_modules/.bin/parley-server'), []);
  servers.push(direct);
  step(`node_modules/.bin/parley-server: ${await converse(direct.url)}`);

  // 3. `npx parley-server --upstream` in front of it: the checking proxy from the tarball.
  const proxy = await startServer('npx', ['--no', '--', 'parley-server', '--upstream', direct.url]);
  servers.push(proxy);
  check(
    proxy.output().stdout.includes(`checking proxy to ${direct.url}`),
    `the proxy's start line does not name the upstream:\n${proxy.output().stdout}`,
  );
  step(`npx parley-server --upstream ${direct.url}: ${await converse(proxy.url)}`);
  killGroup(proxy.child, 'SIGTERM');
  await proxy.closed;
  const proxyErr = ownErrors(proxy.output().stderr);
  check(
    proxyErr === `[parley] proxy report: 2 requests to ${direct.url}, 0 protocol violations in 0 requests`,
    `the proxy's stderr:\n${proxy.output().stderr}`,
  );
  step('the checking proxy forwarded both requests, found no violation and printed its report on stop');

  direct.child.kill('SIGTERM');
  const exit = await direct.closed;
  check(exit.code === 0, `after SIGTERM the exit was ${JSON.stringify(exit)}`);
  checkStopped(direct, 'SIGTERM');
  step('SIGTERM: exit code 0, one line');

  // 4. `npx parley-server run -- <command>` in a CI script: the command gets the server, the exit
  //    status is the command's, the server stopped.
  const ran = spawnSync(
    'bash',
    [
      '-c',
      `npx --no -- parley-server run --port 0 -- node -e 'fetch(process.env.PARLEY_BASE_URL + "/healthz").then((r) => { console.log("command saw " + r.status); process.exit(3) })'`,
    ],
    { cwd: app, env, encoding: 'utf8', timeout: 60_000 },
  );
  check(
    ran.status === 3 &&
      ran.stdout === 'command saw 200\n' &&
      ran.stderr.includes('Parley reference server stopped (the command exited with 3)'),
    `npx parley-server run: status ${ran.status}, stdout:\n${ran.stdout}\nstderr:\n${ran.stderr}`,
  );
  step(
    'bash -c "npx parley-server run -- <command>": the command reached the server, its status 3 came back',
  );

  // 5. `npx parley-server &` in a CI script, then `kill $!`: npx dies without passing the signal on;
  //    the server notices its launcher is gone and stops as on SIGTERM.
  const background = spawn('bash', ['-c', 'npx --no -- parley-server --port 0 & echo "npx $!"; wait'], {
    cwd: app,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  servers.push({ child: background });
  let backgroundOut = '';
  background.stdout.on('data', (chunk) => {
    backgroundOut += chunk;
  });
  const backgroundClosed = new Promise((resolve) => background.stdout.once('close', resolve));
  const listeningBy = Date.now() + 60_000;
  while (!/listening on/.test(backgroundOut)) {
    check(Date.now() < listeningBy, `npx parley-server & did not start:\n${backgroundOut}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  process.kill(Number(/npx (\d+)/.exec(backgroundOut)?.[1]), 'SIGTERM');
  const stopped = await Promise.race([
    backgroundClosed.then(() => true),
    new Promise((resolve) => setTimeout(() => resolve(false), 30_000)),
  ]);
  check(
    stopped && backgroundOut.includes('Parley reference server stopped (SIGTERM)'),
    `after SIGTERM to npx the server did not stop:\n${backgroundOut}`,
  );
  step('bash -c "npx parley-server & ... kill $!": the orphaned server stopped on its own');
  step('passed');
} finally {
  for (const server of servers) killGroup(server.child, 'SIGKILL');
  if (!process.env.PARLEY_KEEP_CONSUMER) rmSync(dir, { recursive: true, force: true });
}
