// After `pnpm build`: load every package's built ESM and CommonJS entries, as a user would, and run
// one conversation through them (SDK over the reference server's fetch). Also: the server's dist/
// imports none of the packages its build bundles for a cheap start (tsup.config.ts `noExternal`).
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const root = new URL('../packages/', import.meta.url);
const at = (path) => new URL(path, root).pathname;

async function conversation(sdk, server, label) {
  const reference = server.createReferenceServer();
  const client = new sdk.Parley({
    baseUrl: 'http://parley.test',
    token: 'parley-demo-token',
    fetch: reference.fetch,
  });
  const { sessionId } = await client.sessions.create();
  const reply = await client.messages.send(sessionId, { content: '/say It works.' });
  const text = reply.messages.at(-1)?.content[0]?.text;
  if (text !== 'It works.') throw new Error(`${label}: unexpected reply ${JSON.stringify(reply)}`);
  // The erp provider's server and the MCP SDK are chunks loaded on first use (#stdio-support resolved).
  const erp = await client.sessions.create({ customizations: { extensions: { mcpProviders: ['erp'] } } });
  const tool = await client.messages.send(erp.sessionId, {
    content: '/mcp erp.get_customer {"customerId":"C-1002"}',
  });
  if (!JSON.stringify(tool.messages).includes('Globex Ltd'))
    throw new Error(`${label}: erp tool call failed`);
  const openapi = await (await reference.fetch(new Request('http://parley.test/openapi.json'))).json();
  if (!openapi.openapi?.startsWith('3.1.')) throw new Error(`${label}: GET /openapi.json`);
  await reference.close();
  console.log(`${label}: ok`);
}

const esm = {
  protocol: await import(at('protocol/dist/index.js')),
  sdk: await import(at('sdk/dist/index.js')),
  server: await import(at('reference-server/dist/index.js')),
  msw: await import(at('reference-server/dist/msw.js')),
};
const cjs = {
  protocol: require(at('protocol/dist/index.cjs')),
  sdk: require(at('sdk/dist/index.cjs')),
  server: require(at('reference-server/dist/index.cjs')),
  msw: require(at('reference-server/dist/msw.cjs')),
};
// One copy of every class whichever entries are loaded (shared chunks in both formats).
for (const [label, mod] of [
  ['ESM', esm],
  ['CJS', cjs],
]) {
  if (mod.server.ManualClock !== mod.msw.ManualClock) throw new Error(`${label}: ManualClock is duplicated`);
  if (mod.server.createReferenceServer !== mod.msw.createReferenceServer) {
    throw new Error(`${label}: createReferenceServer is duplicated`);
  }
}
for (const [label, mod] of [
  ['ESM', esm],
  ['CJS', cjs],
]) {
  if (typeof mod.protocol.MessageReplySchema?.parse !== 'function') throw new Error(`${label}: protocol`);
  if (typeof mod.msw.createHandlers !== 'function') throw new Error(`${label}: msw entry`);
  await conversation(mod.sdk, mod.server, label);
}

// The test runners' entries load as users load them (Jest's needs Jest's sandbox: its @jest/globals
// import throws elsewhere, so it is checked by its tests and the consumer's type check).
for (const [label, load] of [
  ['ESM', (entry) => import(at(`reference-server/dist/${entry}.js`))],
  ['CJS', async (entry) => require(at(`reference-server/dist/${entry}.cjs`))],
]) {
  const nodeTest = await load('node-test');
  const playwright = await load('playwright');
  const jsdom = await load('jest-environment-jsdom');
  if (typeof nodeTest.useReferenceServer !== 'function') throw new Error(`${label}: node-test entry`);
  if (typeof playwright.parleyFixtures !== 'function' || typeof playwright.test?.extend !== 'function') {
    throw new Error(`${label}: playwright entry`);
  }
  if (typeof jsdom.TestEnvironment !== 'function') throw new Error(`${label}: jest-environment-jsdom entry`);
}
console.log('runner entries: node-test, playwright, jest-environment-jsdom load in ESM and CJS');

// zod, the protocol and Hono are bundled into the server's dist/ (docs/architecture.md, "Keeping the
// start cheap"): no built file imports them from node_modules. Lines of comments (JSDoc examples
// bundled with Hono) are not imports.
const BUNDLED = /(?:from |import\(|require\(|^import )"(?:zod|@parley\/protocol|hono)(?:\/[^"]*)?"/;
const serverDist = at('reference-server/dist/');
for (const file of readdirSync(serverDist).filter((name) => /\.c?js$/.test(name))) {
  const imports = readFileSync(serverDist + file, 'utf8')
    .split('\n')
    .filter((line) => !/^\s*(?:\*|\/\/|\/\*)/.test(line) && BUNDLED.test(line));
  if (imports.length > 0)
    throw new Error(`reference-server/dist/${file} imports a bundled package: ${imports[0]}`);
}
console.log('reference-server dist: zod, @parley/protocol and hono bundled');
