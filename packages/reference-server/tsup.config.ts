import { defineConfig } from 'tsup';

// `#stdio-support` (package.json `imports`) stays an import: Node resolves it to dist/stdio-support.*,
// browser bundlers to dist/stdio-support-browser.*, so a browser build never reaches the stdio client.
// `#upstream-transport` likewise: the proxy's node:http client on Node, the global fetch in a browser.
const external = ['#stdio-support', '#upstream-transport'];

export default defineConfig([
  {
    entry: {
      index: 'src/index.ts',
      msw: 'src/msw.ts',
      node: 'src/node.ts',
      vitest: 'src/vitest.ts',
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
    sourcemap: true,
    target: 'es2022',
    external,
  },
  {
    // The CLI: ESM only (top-level await); tsup keeps the shebang and makes the file executable.
    entry: ['src/cli.ts'],
    format: ['esm'],
    sourcemap: true,
    target: 'es2022',
    external,
  },
]);
