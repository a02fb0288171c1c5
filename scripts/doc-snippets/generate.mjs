// Turns every fenced TypeScript snippet of README.md and docs/*.md into a vitest test under
// scripts/doc-snippets/.generated/, which `pnpm test` runs and `pnpm typecheck` type-checks, so a
// snippet cannot go stale. A snippet may use fixtures it does not declare (`server`, `client`,
// `sessionId`, `reply`, `pending`, `getWeather`, `myModel`): see fixtures.ts. Names the packages
// export are imported automatically when a snippet uses them without importing them.
//
// An HTML comment on the line before a fence tunes the snippet (invisible on rendered pages):
//   <!-- snippet: same-type-as ScriptedTurn from @parley/reference-server -->
//     an interface shown for reading: it must equal the exported type, member for member
//   <!-- snippet: files examples/testing-with-parley/test/summaries.json -->
//     copies these files (paths from the repository root) into the snippet's working directory
//   <!-- snippet: alias ./parley-api packages/sdk/test/openapi/openapi-types.ts -->
//     resolves an import the reader makes themselves (a generated file) to a file of the repository
//   <!-- snippet: env PARLEY_BASE_URL=http://127.0.0.1:4010 PARLEY_TOKEN=parley-demo-token -->
//     sets these environment variables while the snippet runs
//   <!-- snippet: browser -->
//     browser-only code (msw's service worker): written as NAME.browser.ts, which `pnpm typecheck`
//     type-checks and vitest does not run (Node has no service worker)
// Several directives are separated by `;`.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const out = join(here, '.generated');

const FIXTURES = ['server', 'client', 'sessionId', 'reply', 'pending', 'getWeather', 'myModel'];

/** Names a snippet may use without importing them, and where they come from. */
const AUTO_IMPORTS = {
  '@parley/reference-server': [
    'createReferenceServer',
    'startServer',
    'ManualClock',
    'scriptedModel',
    'turn',
    'loadScript',
    'HttpError',
  ],
  '@parley/reference-server/vitest': ['useReferenceServer'],
  '@parley/sdk': [
    'Parley',
    'defineTool',
    'toolsToExtensions',
    'runToolLoop',
    'ToolCallLostError',
    'ToolReportError',
    'ToolTimeoutError',
    'ToolWorkerTimeoutError',
    'ToolNotDeclaredError',
    'ConflictError',
    'NotFoundError',
    'APIError',
  ],
  '@parley/sdk/tools': ['runTool', 'Heartbeat'],
  vitest: ['expect', 'it', 'describe', 'vi', 'beforeEach', 'afterEach'],
  zod: ['z'],
};
const AUTO_TYPE_IMPORTS = {
  '@parley/protocol': ['Customizations', 'ContentBlock', 'StopReason'],
  '@parley/reference-server': [
    'SessionInfo',
    'ServerTool',
    'Model',
    'ExtensionHost',
    'ScriptedToolUse',
    'StreamPace',
  ],
};

/** Every fenced TypeScript block of one Markdown file, with the directive above it. */
export function extractSnippets(markdown, file) {
  const lines = markdown.split('\n');
  const snippets = [];
  for (let i = 0; i < lines.length; i++) {
    if (!/^```(ts|typescript)\s*$/.test(lines[i])) continue;
    const start = i + 1;
    let end = start;
    while (end < lines.length && !/^```\s*$/.test(lines[end])) end++;
    if (end === lines.length) throw new Error(`${file}:${i + 1}: a TypeScript fence is never closed`);
    const directive = /^<!--\s*snippet:\s*(.*?)\s*-->$/.exec(lines[i - 1] ?? '')?.[1];
    snippets.push({ file, line: i + 1, code: lines.slice(start, end).join('\n'), directive });
    i = end;
  }
  return snippets;
}

/** The code with comments and string contents blanked, for finding names. */
function codeOnly(code) {
  return code
    .replace(/\/\*[\s\S]*?\*\//g, ' ')
    .replace(/\/\/.*$/gm, ' ')
    .replace(/'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*"/g, "''")
    .replace(/`(?:\\.|[^`\\])*`/g, (t) => t.replace(/[^$\n{}]+(?![^{]*})/g, ' '));
}

function declaredNames(code) {
  const names = new Set();
  for (const m of code.matchAll(
    /\b(?:const|let|var|function|class|interface|type|enum)\s+([A-Za-z_$][\w$]*)/g,
  )) {
    names.add(m[1]);
  }
  for (const m of code.matchAll(/\b(?:const|let|var)\s*[{[]([^=]*?)[}\]]\s*=/g)) {
    for (const part of m[1].split(',')) {
      const name = part
        .split(':')
        .pop()
        .split('=')[0]
        .replace(/\.\.\./, '')
        .trim();
      if (/^[A-Za-z_$][\w$]*$/.test(name)) names.add(name);
    }
  }
  for (const m of code.matchAll(/\bfor\s*\(\s*(?:const|let)\s+([A-Za-z_$][\w$]*)/g)) names.add(m[1]);
  for (const m of code.matchAll(/^import\s+(?:type\s+)?\{([^}]*)\}/gm)) {
    for (const part of m[1].split(',')) {
      const name = part
        .split(/\s+as\s+/)
        .pop()
        .replace(/^type\s+/, '')
        .trim();
      if (name) names.add(name);
    }
  }
  for (const m of code.matchAll(/^import\s+(?:\*\s+as\s+)?([A-Za-z_$][\w$]*)\s+from/gm)) names.add(m[1]);
  return names;
}

function uses(code, name) {
  return new RegExp(`(?<![\\w$.])${name.replace('$', '\\$')}(?![\\w$])`).test(code);
}

/** The generated test file of one snippet. */
export function snippetTest(snippet) {
  const where = `${snippet.file}:${snippet.line}`;
  const lines = snippet.code.split('\n');
  const importLines = [];
  const body = [];
  let inImport = false;
  for (const line of lines) {
    if (inImport || /^import\s/.test(line)) {
      importLines.push(line);
      inImport = !/from\s+['"][^'"]+['"];?\s*$/.test(line) && !/^import\s+['"]/.test(line);
    } else body.push(line);
  }
  const bare = codeOnly(snippet.code);
  const declared = declaredNames(bare);
  const auto = [];
  for (const [from, names] of Object.entries(AUTO_IMPORTS)) {
    const wanted = names.filter((n) => !declared.has(n) && uses(bare, n));
    if (wanted.length > 0) auto.push(`import { ${wanted.join(', ')} } from '${from}';`);
  }
  for (const [from, names] of Object.entries(AUTO_TYPE_IMPORTS)) {
    const wanted = names.filter((n) => !declared.has(n) && uses(bare, n));
    if (wanted.length > 0) auto.push(`import type { ${wanted.join(', ')} } from '${from}';`);
  }
  const fixtures = FIXTURES.filter((n) => !declared.has(n) && uses(bare, n));
  const header = [
    `// Generated by scripts/doc-snippets/generate.mjs from ${where}. Do not edit: edit the document.`,
    '/* eslint-disable */',
  ];
  const directives = (snippet.directive ?? '').split(';').map((d) => d.trim());
  const directive = (name) => directives.find((d) => d.startsWith(`${name} `));
  for (const alias of directives.filter((d) => d.startsWith('alias '))) {
    const [, from, path] = alias.split(/\s+/);
    const target = relative(out, join(root, path)).replace(/\.ts$/, '.js');
    for (let i = 0; i < importLines.length; i++) {
      importLines[i] = importLines[i].replace(`'${from}'`, `'${target}'`);
    }
  }
  const sameType = /^same-type-as\s+(\w+)\s+from\s+(\S+)$/.exec(directive('same-type-as') ?? '');
  if (sameType) {
    const [, name, from] = sameType;
    return [
      ...header,
      ...auto,
      `import type { ${name} as Exported } from '${from}';`,
      "import { expectTypeOf, it } from 'vitest';",
      '',
      snippet.code,
      '',
      `it('${where}: the documented ${name} is the exported one', () => {`,
      `  expectTypeOf<${name}>().toEqualTypeOf<Exported>();`,
      '});',
      '',
    ].join('\n');
  }
  if (directives.includes('browser')) {
    if (fixtures.length > 0) throw new Error(`${where}: a browser snippet cannot use fixtures`);
    return [...header, ...importLines, ...auto, '', ...body, ''].join('\n');
  }
  const files = /^files\s+(.+)$/.exec(directive('files') ?? '')?.[1]?.split(/\s+/) ?? [];
  const env = Object.fromEntries(
    (/^env\s+(.+)$/.exec(directive('env') ?? '')?.[1]?.split(/\s+/) ?? []).map((pair) => pair.split('=', 2)),
  );
  const isTestFile = /^(it|test|describe)\(/m.test(bare);
  if (isTestFile) {
    if (fixtures.length > 0) throw new Error(`${where}: a snippet with its own tests cannot use fixtures`);
    return [...header, ...importLines, ...auto, '', ...body, ''].join('\n');
  }
  return [
    ...header,
    "import { it as __it } from 'vitest';",
    "import { withDocFixtures } from '../fixtures.js';",
    ...importLines,
    ...auto,
    '',
    `__it('${where} runs as documented', async () => {`,
    `  await withDocFixtures(${JSON.stringify({ files, needs: fixtures, env })}, async (__fixtures) => {`,
    fixtures.length > 0 ? `    const { ${fixtures.join(', ')} } = __fixtures;` : '    void __fixtures;',
    // A module's `export` means nothing inside the test's function: the declaration stays.
    ...body.map((l) =>
      l === '' ? '' : `    ${l.replace(/^export\s+(?=(const|let|function|async|class)\b)/, '')}`,
    ),
    '  });',
    '});',
    '',
  ].join('\n');
}

export function documents() {
  const docs = readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`);
  return ['README.md', ...docs.sort()];
}

function main() {
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  let count = 0;
  for (const doc of documents()) {
    const snippets = extractSnippets(readFileSync(join(root, doc), 'utf8'), doc);
    for (const snippet of snippets) {
      const browser = (snippet.directive ?? '').split(';').some((d) => d.trim() === 'browser');
      const kind = browser ? 'browser' : 'test';
      const name = `${basename(doc, '.md')}-${String(snippet.line).padStart(4, '0')}.${kind}.ts`;
      writeFileSync(join(out, name), snippetTest(snippet));
      count++;
    }
  }
  console.log(`doc snippets: ${count} tests written to ${relative(root, out)}/`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
