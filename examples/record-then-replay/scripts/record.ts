// Records the cassette again: starts the stand-in deployment, then runs the tests in record mode
// with the checking proxy in front of it (`upstream`). Point WEATHER_UPSTREAM_URL and
// WEATHER_UPSTREAM_TOKEN at a real deployment to record its answers instead.
//
//   npx --yes pnpm@10 --filter @parley/example-record-then-replay record
//   npx --yes pnpm@10 --filter @parley/example-record-then-replay record:missing   (only what the cassette lacks)
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { DEPLOYMENT_TOKEN, startDeployment } from '../test/deployment.js';

const given = process.env.WEATHER_UPSTREAM_URL;
// `--missing`: keep the cassette and record only the sessions and turns it lacks (a new test).
const mode = process.argv.includes('--missing') ? 'record-missing' : 'record';
const deployment = given === undefined ? await startDeployment() : undefined;
const root = fileURLToPath(new URL('../../..', import.meta.url));
// spawn, not spawnSync: the deployment runs in this process and must keep answering.
const child = spawn('npx', ['vitest', 'run', 'examples/record-then-replay'], {
  cwd: root,
  stdio: 'inherit',
  env: {
    ...process.env,
    PARLEY_CASSETTE_MODE: mode,
    WEATHER_UPSTREAM_URL: given ?? deployment?.url,
    WEATHER_UPSTREAM_TOKEN: process.env.WEATHER_UPSTREAM_TOKEN ?? DEPLOYMENT_TOKEN,
  },
});
const [code] = (await once(child, 'exit')) as [number | null];
await deployment?.close();
process.exitCode = code ?? 1;
