import { defineConfig } from 'tsup';

// `#stdio-support` (package.json `imports`) stays an import: Node resolves it to dist/stdio-support.*,
// browser bundlers to dist/stdio-support-browser.*, so a browser build never reaches the stdio client.
// `#upstream-transport` likewise: the proxy's node:http client on Node, the global fetch in a browser.
const external = ['#stdio-support', '#upstream-transport'];
// Bundled into dist/ rather than imported from node_modules: every test file (each vitest worker)
// imports the server afresh, and Node loading zod's ~95 ESM files (its 40 locales among them), the
// protocol's and Hono's ~30 cost more than the rest of the start (`pnpm bench`, cold start). Bundled,
// they are a few tree-shaken chunks. All three stay dependencies: the .d.ts files import zod's and
// the protocol's types, and @hono/node-server imports hono. One copy of zod in dist/ serves the server
// and the protocol's schemas; zod shares its registry and `instanceof` across copies (so the MCP SDK,
// which imports zod itself, takes the server's schemas).
const noExternal = ['zod', '@parley/protocol', /^hono(\/|$)/];

// No source maps in the published files: dist/ is readable ES2022 (not minified), so a stack trace
// points at lines users can read, and a map would point at files the package does not ship (src/,
// the workspace's node_modules/.pnpm); the CommonJS maps of tsup's code splitting even name the
// build machine's absolute path. scripts/check-packed.mjs checks the tarballs ship none.
export default defineConfig([
  {
    entry: {
      index: 'src/index.ts',
      msw: 'src/msw.ts',
      node: 'src/node.ts',
      vitest: 'src/vitest.ts',
      jest: 'src/jest.ts',
      'jest-environment': 'src/jest-environment.ts',
      'jest-environment-jsdom': 'src/jest-environment-jsdom.ts',
      'node-test': 'src/node-test.ts',
      playwright: 'src/playwright.ts',
      'stdio-support': 'src/extensions/mcp/stdio-support.ts',
      'stdio-support-browser': 'src/extensions/mcp/stdio-support-browser.ts',
      'upstream-transport': 'src/proxy/upstream-transport.ts',
      'upstream-transport-browser': 'src/proxy/upstream-transport-browser.ts',
    },
    format: ['esm', 'cjs'],
    // Shared chunks in both formats: one copy of every class whichever entries are loaded.
    splitting: true,
    dts: true,
    clean: false,
    sourcemap: false,
    target: 'es2022',
    external,
    noExternal,
    // `node:test` has no bare name: tsup's default of stripping `node:` would import a package `test`.
    removeNodeProtocol: false,
    // CommonJS output loads its lazy parts with `require`, not `import()`: Jest runs CommonJS in a
    // vm context where `import()` fails ("invoked without --experimental-vm-modules").
    esbuildOptions(options, context) {
      if (context.format === 'cjs') options.supported = { ...options.supported, 'dynamic-import': false };
    },
  },
  {
    // The CLI: ESM only (top-level await); tsup keeps the shebang and makes the file executable.
    // It bundles what it loads before listening as well (commander, @hono/node-server,
    // safe-stable-stringify: the CLI's time to /healthz, `pnpm bench`); CommonJS among them
    // requires Node's built-ins, so the bundle gets a `require`.
    entry: ['src/cli.ts'],
    format: ['esm'],
    sourcemap: false,
    target: 'es2022',
    external,
    noExternal: [...noExternal, 'commander', '@hono/node-server', 'safe-stable-stringify'],
    banner: {
      js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
    },
  },
]);
