// TypeScript for Jest through esbuild, to CommonJS (ts-jest or @swc/jest do the same).
const { transformSync, version } = require('esbuild');

module.exports = {
  getCacheKey: (source, filename) => `${version}:1:${filename}:${source}`,
  process(source, filename) {
    const { code } = transformSync(source, {
      loader: filename.endsWith('.ts') ? 'ts' : 'js',
      format: 'cjs',
      target: 'node20',
      sourcefile: filename,
      sourcemap: 'inline',
      // Jest runs CommonJS in a vm without import(): lazy imports become require.
      supported: { 'dynamic-import': false },
    });
    return { code };
  },
};
