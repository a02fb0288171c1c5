// Two projects: the app's logic in Node, and a component in jsdom. Jest's jsdom environment has no
// fetch, streams or TextEncoder: @parley/reference-server/jest-environment-jsdom puts Node's back.
// Parley's environments also tell useReferenceServer which tests failed, so that a recording run
// never writes a failed test's recording (it refuses to record under another environment).
const shared = {
  rootDir: __dirname,
  transform: { '\\.ts$': '<rootDir>/esbuild-transform.cjs' },
  // TypeScript's ESM spelling './x.js' for './x.ts'.
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
};

module.exports = {
  projects: [
    {
      ...shared,
      displayName: 'node',
      testEnvironment: '@parley/reference-server/jest-environment',
      testMatch: ['<rootDir>/test/*.spec.ts'],
    },
    {
      ...shared,
      displayName: 'jsdom',
      testEnvironment: '@parley/reference-server/jest-environment-jsdom',
      testMatch: ['<rootDir>/test/jsdom/*.spec.ts'],
    },
  ],
};
