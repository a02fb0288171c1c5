import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Import cycles and wrong-way imports are refused by lint (biome.json: noImportCycles and the
// per-folder noRestrictedImports); the file size rule is checked here.
const SRC = fileURLToPath(new URL('../src/', import.meta.url));
const MAX_LINES = 300;

describe('source layout', () => {
  it(`no source file of the server is longer than ${MAX_LINES} lines`, () => {
    const files = readdirSync(SRC, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
    expect(files.length).toBeGreaterThan(50);
    const tooLong = files
      .map((file) => ({ file, lines: readFileSync(`${SRC}${file}`, 'utf8').split('\n').length - 1 }))
      .filter(({ lines }) => lines > MAX_LINES);
    expect(tooLong).toEqual([]);
  });
});
