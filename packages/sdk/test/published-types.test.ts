import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'tsup';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { dts, entry } from '../tsup.config.js';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
// Under the package's node_modules, so that the built types resolve their imports (ky's types,
// Standard Schema) as an installed package's do.
const outDir = join(packageDir, 'node_modules', '.cache', 'published-types');

/** What the published declarations must not name: the SDK's machinery, free to change in any release. */
const INTERNALS = [
  'HttpClient',
  'HttpClientConfig',
  'RequestSpec',
  'OpenResponse',
  'RecoveryTarget',
  'RecoveryClient',
  'MessageStreamStart',
  'StreamObserver',
  'StreamRecovery',
  'StreamRecoveryStep',
  'Shape',
  'relayedStart',
  'hasBrandOf',
];

let declarations = '';

// The declarations as the package build makes them (tsup's dts with the same options), ESM only.
beforeAll(async () => {
  rmSync(outDir, { recursive: true, force: true });
  const entries = Object.fromEntries(
    Object.entries(entry).map(([name, file]) => [name, join(packageDir, file)]),
  );
  await build({
    entry: entries,
    format: ['esm'],
    dts: { ...dts, entry: entries, only: true },
    outDir,
    silent: true,
    config: false,
    tsconfig: join(packageDir, 'tsconfig.json'),
  });
  declarations = readdirSync(outDir)
    .filter((file) => file.endsWith('.d.ts'))
    .map((file) => readFileSync(join(outDir, file), 'utf8'))
    .join('\n');
}, 180_000);

describe('the published types are a contract', () => {
  it('declare none of the internals', () => {
    const declared = INTERNALS.filter((name) => new RegExp(`\\b${name}\\b`).test(declarations));
    expect(declared).toEqual([]);
    // MessageStream's start options are internal too: the class has no `start` in its types.
    expect(declarations).not.toMatch(/static start\b/);
  });

  it('inline the protocol types they name: they import neither @parley/protocol nor zod', () => {
    expect(declarations).not.toMatch(/(from |import\()['"](@parley\/protocol|zod)/);
    expect(declarations).toMatch(/\bERROR_CODES\b/);
    // The wire types (`@parley/protocol/wire`) are declared in place.
    for (const name of [
      'Message',
      'MessageReply',
      'StopReason',
      'StreamEventPayloads',
      'ErrorDetailsByCode',
    ]) {
      expect(declarations).toMatch(new RegExp(`\\btype ${name} = `));
    }
  });

  it('declare the public names', () => {
    for (const name of [
      'Parley',
      'MessageStream',
      'NotFoundError',
      'ParleyError',
      'RequestOptions',
      'ToolLoopRun',
    ]) {
      expect(declarations).toMatch(new RegExp(`\\b(class|interface|type) ${name}\\b`));
    }
  });

  it('compile for a consumer that uses the public surface (strict, exactOptionalPropertyTypes)', () => {
    const consumer = join(outDir, 'consumer.ts');
    writeFileSync(
      consumer,
      `import { NotFoundError, Parley, type RequestOptions } from './index.js';
import { runTool } from './tools.js';

const client = new Parley({ baseUrl: 'http://localhost:4010', token: 't' });
const options: RequestOptions = { timeoutMs: 5_000 };
export async function main(): Promise<string> {
  try {
    const { sessionId } = await client.sessions.create({}, options);
    return await client.messages.stream(sessionId, { content: 'Hi' }).finalText();
  } catch (error) {
    if (error instanceof NotFoundError) return error.requestId ?? error.status.toString();
    throw error;
  }
}
export const run: typeof runTool = runTool;
`,
    );
    mkdirSync(outDir, { recursive: true });
    const program = ts.createProgram([consumer], {
      strict: true,
      exactOptionalPropertyTypes: true,
      noUncheckedIndexedAccess: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
      types: [],
      noEmit: true,
    });
    const problems = ts
      .getPreEmitDiagnostics(program)
      .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(problems).toEqual([]);
  }, 120_000);
});
