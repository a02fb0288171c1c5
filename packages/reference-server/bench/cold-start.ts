// Cold start, each figure in fresh node processes of the same run, interleaved, medians of rounds:
// - a test file's start: import the built package and run one buffered turn in process, against
//   importing `msw/node` alone (what a test file using msw pays before its first request);
// - the CLI's start: spawn `dist/cli.js` until `/healthz` answers, against a bare node:http server
//   spawned until it answers.
// Every child measures itself from before its first import, so node's own boot is left out of the
// in-process figures; the CLI figures are wall time from spawn to the first answer. The in-process
// children also report their CPU time (main and helper threads), which moves less than wall time
// when other work shares the machine; the goal is on wall time.
// What the server's import costs, and why zod, the protocol and Hono are bundled into dist/: the
// "Keeping the start cheap" section of docs/architecture.md.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { median } from './bench-utils.js';

// Run with the package's folder as working directory: `@parley/reference-server` resolves to the
// package itself (its `exports`, so `dist/`) and `msw/node` to its msw.
const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));
const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));

// Each child prints `<wall ms> <CPU ms>`.
const SERVER_TURN = `
const start = performance.now();
const cpu = process.cpuUsage();
const { createReferenceServer } = await import('@parley/reference-server');
const server = createReferenceServer();
const headers = { authorization: 'Bearer parley-demo-token', 'content-type': 'application/json' };
const created = await server.fetch(new Request('http://bench.test/v1/sessions', { method: 'POST', headers, body: '{}' }));
const { sessionId } = await created.json();
const reply = await server.fetch(new Request('http://bench.test/v1/messages/' + sessionId, {
  method: 'POST', headers, body: JSON.stringify({ content: 'Hello there' }),
}));
if (reply.status !== 200) throw new Error('the turn answered ' + reply.status);
await reply.json();
const { user, system } = process.cpuUsage(cpu);
console.log(performance.now() - start, (user + system) / 1000);
`;

const MSW_IMPORT = `
const start = performance.now();
const cpu = process.cpuUsage();
await import('msw/node');
const { user, system } = process.cpuUsage(cpu);
console.log(performance.now() - start, (user + system) / 1000);
`;

const BARE_HTTP = `
import { createServer } from 'node:http';
const server = createServer((req, res) => res.end('{"status":"ok"}'));
server.listen(0, '127.0.0.1', () => console.log('listening on http://127.0.0.1:' + server.address().port));
`;

/** Runs `script` in a fresh node process; the wall and CPU time it prints (ms). */
function timeChild(script: string): Promise<{ wall: number; cpu: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
      cwd: PACKAGE_DIR,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve(parseTimes(out)) : reject(new Error(`a cold-start child exited (${code})`)),
    );
  });
}

function parseTimes(out: string): { wall: number; cpu: number } {
  const [wall = Number.NaN, cpu = Number.NaN] = out.trim().split(' ').map(Number);
  if (!Number.isFinite(wall) || !Number.isFinite(cpu)) throw new Error(`a cold-start child printed ${out}`);
  return { wall, cpu };
}

/** Spawns a server process; ms from spawn until its `/healthz` answers 200. */
function timeToHealthz(args: string[]): Promise<number> {
  const start = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: PACKAGE_DIR, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const url = /https?:\/\/[^\s(;]+/.exec(out)?.[0];
      if (url === undefined) return;
      child.stdout.off('data', onData);
      fetch(`${url}/healthz`).then(
        (response) => {
          const elapsed = performance.now() - start;
          child.kill();
          if (response.status === 200) resolve(elapsed);
          else reject(new Error(`/healthz answered ${response.status}`));
        },
        (error: unknown) => {
          child.kill();
          reject(error);
        },
      );
    };
    child.stdout.on('data', onData);
    child.on('error', reject);
  });
}

export interface ColdStartResult {
  /** Median ms: import of the package and one buffered turn, in process. */
  serverTurn: number;
  /** Median ms: import of `msw/node` alone. */
  mswImport: number;
  /** serverTurn / mswImport, of the medians. */
  ratio: number;
  /** Median CPU ms of the server's child, and of msw's. */
  serverTurnCpu: number;
  mswImportCpu: number;
  /** serverTurnCpu / mswImportCpu, of the medians. */
  cpuRatio: number;
  /** Median ms from spawning `dist/cli.js` to its `/healthz` answering. */
  cliHealthz: number;
  /** Median ms from spawning a bare node:http server to its first answer. */
  bareHealthz: number;
}

/** `rounds` interleaved rounds of each child; medians. One warm-up round (disk cache) is not counted. */
export async function benchColdStart(rounds = 9): Promise<ColdStartResult> {
  const runs = {
    serverTurn: [] as { wall: number; cpu: number }[],
    mswImport: [] as { wall: number; cpu: number }[],
    cli: [] as number[],
    bare: [] as number[],
  };
  for (let round = 0; round <= rounds; round++) {
    const serverTurn = await timeChild(SERVER_TURN);
    const mswImport = await timeChild(MSW_IMPORT);
    const cli = await timeToHealthz([CLI, '--port', '0']);
    const bare = await timeToHealthz(['--input-type=module', '-e', BARE_HTTP]);
    if (round === 0) continue;
    runs.serverTurn.push(serverTurn);
    runs.mswImport.push(mswImport);
    runs.cli.push(cli);
    runs.bare.push(bare);
  }
  const serverTurn = median(runs.serverTurn.map((run) => run.wall));
  const mswImport = median(runs.mswImport.map((run) => run.wall));
  const serverTurnCpu = median(runs.serverTurn.map((run) => run.cpu));
  const mswImportCpu = median(runs.mswImport.map((run) => run.cpu));
  return {
    serverTurn,
    mswImport,
    ratio: serverTurn / mswImport,
    serverTurnCpu,
    mswImportCpu,
    cpuRatio: serverTurnCpu / mswImportCpu,
    cliHealthz: median(runs.cli),
    bareHealthz: median(runs.bare),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(await benchColdStart(Number(process.env.BENCH_ROUNDS ?? 9)));
}
