// Runs the scenario against a reference server over HTTP on a free port, printing what a user
// would see. `pnpm --filter @parley/example-fault-recovery start`
import { startServer } from '@parley/reference-server/node';
import { Parley } from '@parley/sdk';
import { runScenario } from './scenario.js';

const running = await startServer({ port: 0 });
try {
  const client = new Parley({ baseUrl: running.url, token: 'parley-demo-token' });
  const { finalText, attempts, conversation } = await runScenario({
    client,
    server: running.server,
    print: (text) => process.stdout.write(text),
  });
  console.log(`\nanswer: ${finalText}`);
  console.log(`recovery attempts: ${attempts.map((a) => a.action).join(', ')}`);
  console.log(
    `the session holds ${conversation.length} messages: ${conversation.map((m) => m.role).join(', ')}`,
  );
} finally {
  await running.close();
}
