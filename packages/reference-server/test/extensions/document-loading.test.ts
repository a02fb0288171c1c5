import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type DocumentLoadError,
  isDocumentLoadError,
  parseDocuments,
  toDocument,
} from '@parley/reference-server';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { loadDocumentsFile } from '../../src/extensions/load-files.js';

describe('parseDocuments', () => {
  test('reads a JSON array', () => {
    const docs = parseDocuments(
      '[{"id":"a","text":"alpha","tags":{"lang":["en"]}},{"id":"b","text":"beta"}]',
    );
    expect(docs).toEqual([
      { id: 'a', text: 'alpha', tags: { lang: ['en'] } },
      { id: 'b', text: 'beta', tags: {} },
    ]);
  });

  test('reads {"documents": [...]}', () => {
    expect(parseDocuments('{"documents":[{"id":"a","text":"alpha","title":"A"}]}')).toEqual([
      { id: 'a', text: 'alpha', title: 'A', tags: {} },
    ]);
  });

  test('reads JSONL, skipping blank lines and // comments', () => {
    const text = '// demo\n{"id":"a","text":"alpha"}\n\n{"id":"b","text":"beta","tags":{"team":"sales"}}\n';
    expect(parseDocuments(text)).toEqual([
      { id: 'a', text: 'alpha', tags: {} },
      { id: 'b', text: 'beta', tags: { team: ['sales'] } },
    ]);
  });

  test('reads a one-line JSONL file', () => {
    expect(parseDocuments('{"id":"a","text":"alpha"}')).toHaveLength(1);
  });

  test('reports every bad JSONL line with its number and the field', () => {
    const text = [
      '{"id":"a","text":"alpha"}',
      '{"id":"b"}',
      'not json',
      '{"id":"a","text":"again"}',
      '{"id":"c","text":"x","tags":{"lang":[1]}}',
      '{"id":"d","text":"x","colour":"red"}',
    ].join('\n');
    let error: unknown;
    try {
      parseDocuments(text, 'docs.jsonl');
    } catch (e) {
      error = e;
    }
    expect(isDocumentLoadError(error)).toBe(true);
    const problems = (error as DocumentLoadError).problems;
    expect(problems.map((p) => p.line)).toEqual([2, 3, 4, 5, 6]);
    expect(problems[0]?.message).toContain('text');
    expect(problems[1]?.message).toContain('not JSON');
    expect(problems[2]?.message).toContain('duplicate id "a"');
    expect(problems[3]?.message).toContain('tags.lang.0');
    expect(problems[4]?.message).toContain('colour');
    expect((error as Error).message).toContain('docs.jsonl');
    expect((error as Error).message).toContain('line 3');
  });

  test('a tag named __proto__ is reported with its line, not dropped silently', () => {
    const text = ['{"id":"a","text":"alpha"}', '{"id":"b","text":"beta","tags":{"__proto__":["x"]}}'].join(
      '\n',
    );
    expect(() => parseDocuments(text, 'docs.jsonl')).toThrow(
      /line 2: tags\.__proto__: a key named "__proto__" is not accepted here/,
    );
    expect(() => parseDocuments('[{"id":"b","text":"beta","tags":{"__proto__":"x"}}]')).toThrow(
      /line 1: tags\.__proto__/,
    );
    expect(() => toDocument(JSON.parse('{"id":"b","text":"beta","tags":{"__proto__":["x"]}}'))).toThrow(
      /Document b: tags\.__proto__: a key named "__proto__" is not accepted here/,
    );
  });

  test('reports bad entries of a JSON array by position', () => {
    expect(() => parseDocuments('[{"id":"a","text":"x"},{"id":"","text":"y"}]')).toThrow(/line 2: id/);
  });
});

describe('loadDocumentsFile', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'parley-docs-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  test('loads a JSONL file', async () => {
    const path = join(dir, 'kb.jsonl');
    await writeFile(path, '{"id":"a","text":"alpha"}\n{"id":"b","text":"beta"}\n');
    expect((await loadDocumentsFile(path)).map((d) => d.id)).toEqual(['a', 'b']);
  });

  test('a missing file is a DocumentLoadError naming the path', async () => {
    await expect(loadDocumentsFile(join(dir, 'missing.jsonl'))).rejects.toThrow(/missing\.jsonl/);
  });
});
