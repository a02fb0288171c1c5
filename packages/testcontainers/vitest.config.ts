import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// The container tests: they need a container engine with the Docker API (Podman's, on this
// project's machines: docs/containers.md) and the image built from the repository
// (scripts/container/build-image.sh). Not part of `pnpm test`; `.ci/run` runs them through
// `pnpm test:container` (scripts/container/test.sh).
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  resolve: { conditions: ['@parley/source', 'module', 'node', 'import', 'default'] },
  ssr: { resolve: { conditions: ['@parley/source', 'node', 'import', 'default'] } },
  test: {
    include: ['container-test/**/*.test.ts'],
    globalSetup: ['container-test/global-setup.ts'],
    // The tests wait on the container engine, not on the CPU: files and tests run at once (each
    // test names its own containers).
    maxWorkers: 2,
    sequence: { concurrent: true },
    maxConcurrency: 4,
    // Generous for a loaded CI machine; a hang still ends the test.
    testTimeout: 120_000,
    hookTimeout: 60_000,
  },
});
