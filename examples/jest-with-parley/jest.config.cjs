// Two projects: the app's logic in Node, and a component in jsdom. Jest's jsdom environment has no
// fetch, streams or TextEncoder: @parley/reference-server/jest-environment-jsdom puts Node's back.
const shared = {
  rootDir: __dirname,
  transform: { '\\.ts$': '<rootDir>/esbuild-transform.cjs' },
  // TypeScript's ESM spelling './x.js' for './x.ts'.
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
};

module.exports = {
  projects: [
    { ...shared, displayName: 'node', testEnvironment: 'node', testMatch: ['<rootDir>/test/*.spec.ts'] },
    {
      ...shared,
      displayName: 'jsdom',
      testEnvironment: '@parley/reference-server/jest-environment-jsdom',
      testMatch: ['<rootDir>/test/jsdom/*.spec.ts'],
    },
  ],
};
