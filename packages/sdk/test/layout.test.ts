import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Import cycles and wrong-way imports are refused by lint (biome.json: noImportCycles and the
// per-folder noRestrictedImports); the file size rule and the tests' layout are checked here.
const ROOT = fileURLToPath(new URL('../', import.meta.url));
const SRC = `${ROOT}src/`;
const MAX_LINES = 300;

const sources = (dir: string) =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));

describe('source layout', () => {
  it(`no source file of the SDK is longer than ${MAX_LINES} lines`, () => {
    const files = sources(SRC);
    expect(files.length).toBeGreaterThan(50);
    const tooLong = files
      .map((file) => ({ file, lines: readFileSync(`${SRC}${file}`, 'utf8').split('\n').length - 1 }))
      .filter(({ lines }) => lines > MAX_LINES);
    expect(tooLong).toEqual([]);
  });

  it('the tool helpers live in one folder per concern, and their tests mirror them', () => {
    const folders = (dir: string) =>
      readdirSync(dir, { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => entry.name)
        .sort();
    expect(folders(`${SRC}tools`)).toEqual(['define', 'loop', 'run', 'worker']);
    const tested = folders(`${ROOT}test/tools`).filter((name) => name !== 'helpers');
    expect(tested).toEqual(['define', 'loop', 'run', 'worker']);
  });
});
