// In this repository only: the packages resolve to their sources (nothing is built before the
// tests run), and the SDK's sources import ky and p-limit, which ship ESM only. In your project,
// jest.config.cjs is the whole configuration.
const base = require('./jest.config.cjs');

const repo = {
  testEnvironmentOptions: { customExportConditions: ['@parley/source', 'node', 'require', 'default'] },
  transform: { '\\.[cm]?[jt]s$': '<rootDir>/esbuild-transform.cjs' },
  transformIgnorePatterns: ['/node_modules/(?!(\\.pnpm/[^/]+/node_modules/)?(ky|p-limit|yocto-queue)/)'],
};
const sourceEnvironments = {
  node: require.resolve('../../packages/reference-server/src/jest-environment.ts'),
  jsdom: require.resolve('../../packages/reference-server/src/jest-environment-jsdom.ts'),
};

module.exports = {
  projects: base.projects.map((project) => ({
    ...project,
    ...repo,
    testEnvironment: sourceEnvironments[project.displayName],
  })),
};
