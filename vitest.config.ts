import { defineConfig } from 'vitest/config';

// Tests import the public package names; the `@parley/source` export condition
// resolves them to `src/` so no build is needed before testing.
export default defineConfig({
  resolve: { conditions: ['@parley/source', 'module', 'node', 'import', 'default'] },
  ssr: { resolve: { conditions: ['@parley/source', 'node', 'import', 'default'] } },
  test: {
    include: [
      'packages/*/src/**/*.test.ts',
      'packages/*/test/**/*.test.ts',
      'examples/*/test/**/*.test.ts',
      'scripts/test/*.test.ts',
      // Every fenced TypeScript snippet of README.md and docs/ (scripts/doc-snippets/generate.mjs).
      'scripts/doc-snippets/.generated/*.test.ts',
    ],
    // Test files share each worker's module graph: the packages, zod, Hono and msw are imported
    // once per worker instead of once per file (the suite spent 90 of 210 s importing). Every test
    // cleans up after itself (servers stopped, timers and env restored), which this relies on.
    isolate: false,
    // One and a half workers per core (three on two cores). vitest's default is one fewer than the
    // cores: a single worker on a 2-core machine, which ran the whole suite one file after another.
    // Many files wait on the processes, sockets, browsers and timers they start (two workers left
    // the CPU 8 % idle): a third worker fills that time (on two cores, 110 s -> 101 s).
    maxWorkers: '150%',
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // Transformed modules kept on disk (node_modules/.experimental-vitest-cache, keyed by content):
    // the other workers, and every vitest a test starts (the runner helpers' real runs), reuse
    // what the first transformed instead of transforming the packages' sources again (a child
    // vitest: 4.4 s -> 1.2 s).
    experimental: { fsModuleCache: true },
  },
});
