import { fileURLToPath } from 'node:url';
import { runInNewContext, runInThisContext } from 'node:vm';
import * as root from '@parley/sdk';
import { APIError, ConflictError, NotFoundError, ParleyError, StreamError } from '@parley/sdk';
import * as tools from '@parley/sdk/tools';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

type ErrorClass = abstract new (...args: never[]) => Error;
/**
 * The SDK's error classes, as a copy of its errors module exports them (and the one on
 * `@parley/sdk/tools` only, kept off the root entry).
 */
type ErrorClasses = typeof import('../src/errors/index.js') &
  typeof import('../src/errors/tool-execution-error.js');

const apiInit = {
  status: 404,
  headers: new Headers(),
  method: 'get',
  url: 'http://parley.test/v1/sessions/s',
};

/** One instance of each SDK error class, built from a copy of the classes. */
const factories: Record<string, (m: ErrorClasses) => Error> = {
  ParleyError: (m) => new m.ParleyError('x'),
  APIError: (m) => new m.APIError(apiInit),
  BadRequestError: (m) => new m.BadRequestError(apiInit),
  AuthenticationError: (m) => new m.AuthenticationError(apiInit),
  PermissionDeniedError: (m) => new m.PermissionDeniedError(apiInit),
  NotFoundError: (m) => new m.NotFoundError(apiInit),
  ConflictError: (m) => new m.ConflictError(apiInit),
  PayloadTooLargeError: (m) => new m.PayloadTooLargeError(apiInit),
  RateLimitError: (m) => new m.RateLimitError(apiInit),
  InternalServerError: (m) => new m.InternalServerError(apiInit),
  APIConnectionError: (m) => new m.APIConnectionError(),
  APITimeoutError: (m) => new m.APITimeoutError(),
  APIUserAbortError: (m) => new m.APIUserAbortError(),
  ResponseValidationError: (m) => new m.ResponseValidationError('x', { issues: [], body: 1 }),
  StreamError: (m) => new m.StreamError('x', { eventCount: 0 }),
  ToolCallLostError: (m) =>
    new m.ToolCallLostError('x', { reason: 'ABANDONED', sessionId: 's', requestId: 'r' }),
  ToolReportError: (m) =>
    new m.ToolReportError('x', { sessionId: 's', requestId: 'r', report: { kind: 'error', message: 'm' } }),
  ToolOutputTooLargeError: (m) => new m.ToolOutputTooLargeError('x', { bytes: 2, maxBytes: 1 }),
  ToolNotDeclaredError: (m) => new m.ToolNotDeclaredError({ sessionId: 's', toolNames: ['a'], declared: [] }),
  ToolTimeoutError: (m) => new m.ToolTimeoutError('a', 5),
  ToolExecutionError: (m) =>
    new m.ToolExecutionError('x', { reason: 'HANDLER_FAILED', toolName: 'a', requestId: 'r' }),
  ToolApprovalTimeoutError: (m) =>
    new m.ToolApprovalTimeoutError({ sessionId: 's', requestId: 'r', toolName: 'a', waitedMs: 5 }),
  ToolWorkerError: (m) => new m.ToolWorkerError('x'),
  ToolWorkerDataError: (m) => new m.ToolWorkerDataError('x', { path: 'input' }),
  ToolWorkerTimeoutError: (m) => new m.ToolWorkerTimeoutError('x', { timeoutMs: 5 }),
  ReplyRecoveryError: (m) => new m.ReplyRecoveryError('x', { sessionId: 's', attempts: 1, cause: undefined }),
};

function isErrorClass(value: unknown): value is ErrorClass {
  return typeof value === 'function' && value.prototype instanceof Error;
}

/** Every error class on the root entry and on `@parley/sdk/tools`, by name. */
const classes = new Map<string, ErrorClass>();
for (const [name, value] of Object.entries({ ...root, ...tools })) {
  if (isErrorClass(value)) classes.set(name, value);
}

/** Whether `Sub` is `Base` or extends it, in this realm's class tree. */
function extendsClass(Sub: ErrorClass, Base: ErrorClass): boolean {
  for (let c: unknown = Sub; typeof c === 'function'; c = Object.getPrototypeOf(c)) {
    if (c === Base) return true;
  }
  return false;
}

/**
 * A copy of the SDK's error classes: evaluated in a `node:vm` context (another realm, with its own
 * `Error`), or in this realm (as two installed versions of the SDK in one app would be).
 */
async function copyOfTheErrors(realm: 'another realm' | 'this realm'): Promise<ErrorClasses> {
  const { outputFiles } = await build({
    stdin: {
      contents: "export * from './index.ts'; export * from './tool-execution-error.ts';",
      resolveDir: fileURLToPath(new URL('../src/errors/', import.meta.url)),
      loader: 'ts',
    },
    bundle: true,
    format: 'cjs',
    platform: 'neutral',
    write: false,
    logLevel: 'silent',
  });
  const code = outputFiles?.[0]?.text ?? '';
  const module = { exports: {} } as { exports: ErrorClasses };
  const wrapped = `(function (module, exports) {${code}\n})`;
  const run: (module: unknown, exports: unknown) => void =
    realm === 'this realm' ? runInThisContext(wrapped) : runInNewContext(wrapped);
  run(module, module.exports);
  return module.exports;
}

describe('instanceof works across realms and copies of the SDK', () => {
  it('every error class on the root entry and @parley/sdk/tools can be built here (the table below covers them all)', () => {
    expect([...classes.keys()].sort()).toEqual(Object.keys(factories).sort());
  });

  it('an error from another realm is an instance of its class and of its ancestors only', async () => {
    const foreign = await copyOfTheErrors('another realm');
    for (const [name, make] of Object.entries(factories)) {
      const error = make(foreign);
      // Another realm's Error: the ordinary prototype chain would say no to every class here.
      expect(Object.getPrototypeOf(Object.getPrototypeOf(error))).not.toBe(Error.prototype);
      for (const [other, Class] of classes) {
        const own = classes.get(name);
        if (!own) throw new Error(`no class ${name}`);
        expect(error instanceof Class, `${name} instanceof ${other}`).toBe(extendsClass(own, Class));
      }
    }
  });

  it('an error from a second copy of the module is an instance of the same classes', async () => {
    const copy = await copyOfTheErrors('this realm');
    expect(copy.NotFoundError).not.toBe(NotFoundError);
    const error = factories.NotFoundError?.(copy);
    expect(error instanceof NotFoundError).toBe(true);
    expect(error instanceof APIError).toBe(true);
    expect(error instanceof ParleyError).toBe(true);
    expect(error instanceof ConflictError).toBe(false);
    expect(error instanceof StreamError).toBe(false);
  });

  it("a user's subclass keeps its ancestors' brands and answers for itself by its prototype", () => {
    class SessionGone extends NotFoundError {}
    const gone = new SessionGone(apiInit);
    expect(gone instanceof SessionGone).toBe(true);
    expect(gone instanceof NotFoundError).toBe(true);
    expect(gone instanceof ParleyError).toBe(true);
    expect(new NotFoundError(apiInit) instanceof SessionGone).toBe(false);
  });

  it('narrows the type as instanceof does', () => {
    const error: unknown = new ConflictError({ ...apiInit, status: 409 });
    if (!(error instanceof ConflictError)) throw new Error('expected a ConflictError');
    expect(error.status).toBe(409);
    expect(error.name).toBe('ConflictError');
  });
});
