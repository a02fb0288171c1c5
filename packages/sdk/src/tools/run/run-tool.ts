import { DEFAULT_MAX_BODY_BYTES } from '../../core/defaults.js';
import {
  APIUserAbortError,
  isConflictError,
  isNotFoundError,
  isPayloadTooLargeError,
  ToolCallLostError,
  ToolReportError,
} from '../../errors/index.js';
import { linkedSignal } from '../../internal/linked-signal.js';
import { raceSignal } from '../../internal/race-signal.js';
import type { PendingTool } from '../../wire/index.js';
import { type AnyTool, RESERVED_OUTPUT_FIELD, type Tool, type ToolContext } from '../define/define-tool.js';
import {
  formatIssues,
  type ObjectSchema,
  type SchemaOutput,
  type ToolObject,
  validateWith,
} from '../define/tool-schema.js';
import { Heartbeat } from './heartbeat.js';
import { responseBodyBytes, toolOutputTooLarge } from './output-size.js';
import { reportWithRetry } from './report.js';
import type { ToolClient, ToolTransport } from './tool-transport.js';

/**
 * How one tool call ended:
 * - `COMPLETE`: the output was submitted;
 * - `ERROR`: a failure was reported to the model (bad input, a thrown error, bad output);
 * - `LOST`: the call was abandoned (409), is gone (404) or its heartbeats failed for too long;
 *   nothing was reported;
 * - `ALREADY_SETTLED`: the report got 409: another worker (or an earlier attempt) settled it first.
 */
export type ToolRunStatus = 'COMPLETE' | 'ERROR' | 'LOST' | 'ALREADY_SETTLED';

/** The output a tool submits: its output schema's parsed value, or any object without one. */
export type ToolRunOutput<TTool extends AnyTool = AnyTool> =
  TTool extends Tool<infer _I, infer O>
    ? [O] extends [ObjectSchema]
      ? unknown extends SchemaOutput<O>
        ? ToolObject
        : SchemaOutput<O>
      : ToolObject
    : ToolObject;

interface ToolRunBase {
  requestId: string;
  name: string;
}

/** The output was checked and submitted. */
export interface ToolRunComplete<TTool extends AnyTool = AnyTool> extends ToolRunBase {
  status: 'COMPLETE';
  /** The submitted output, typed from the tool's output schema when it has one. */
  output: ToolRunOutput<TTool>;
  error?: undefined;
  cause?: undefined;
}

/** A failure was reported to the model: bad input, a thrown error, bad output, an unknown tool. */
export interface ToolRunError extends ToolRunBase {
  status: 'ERROR';
  output?: undefined;
  /** The message the model got. */
  error: string;
  /** The thrown value, or the schema library's issues (an array); none for an unknown tool. */
  cause?: unknown;
}

/** The call was abandoned (409), is gone (404) or its heartbeats failed for too long; nothing was reported. */
export interface ToolRunLost extends ToolRunBase {
  status: 'LOST';
  output?: undefined;
  /** Why nothing was reported. */
  error: string;
  cause: ToolCallLostError;
}

/** The report got 409: another worker (or an earlier attempt) settled the call first. */
export interface ToolRunAlreadySettled extends ToolRunBase {
  status: 'ALREADY_SETTLED';
  output?: undefined;
  error: string;
  /** The `ConflictError` of the report. */
  cause: unknown;
}

/** How one tool call ended: a union on `status`, so `result.output` is there after `status === 'COMPLETE'`. */
export type ToolRunResult<TTool extends AnyTool = AnyTool> =
  | ToolRunComplete<TTool>
  | ToolRunError
  | ToolRunLost
  | ToolRunAlreadySettled;

export interface RunToolOptions<TTool extends AnyTool = AnyTool> {
  sessionId: string;
  /** The call to run: an entry of `reply.pendingTools` (only `requestId`, `name` and `input` are read). */
  pending: Pick<PendingTool, 'requestId' | 'name' | 'input'>;
  tool: TTool;
  /** The server's timeout from the reply (`reply.heartbeatTimeoutMs`); sets the heartbeat interval. */
  heartbeatTimeoutMs?: number | undefined;
  /** Aborts the handler (through its `ctx.signal`), the heartbeat and the report; the call rejects. */
  signal?: AbortSignal | undefined;
  /**
   * The server's request body limit in bytes. An output whose response body would be larger is
   * not sent: the model gets an ERROR saying how large it was (a `ToolOutputTooLargeError`), and
   * so it does when the server refuses the body with `413` (its limit then comes from the 413).
   * Default `defaults.tools.maxBodyBytes` (1 MiB, the reference server's `maxBodyBytes`);
   * `Infinity` leaves the size to the server.
   */
  maxBodyBytes?: number | undefined;
  /** Attempts of the terminal report. Default 5. */
  maxReportAttempts?: number | undefined;
  /** Source of heartbeat and retry jitter, `[0, 1)`. */
  random?: (() => number) | undefined;
  /** Called with each failed heartbeat that did not end the timer (for logging). */
  onHeartbeatError?: ((error: unknown) => void) | undefined;
  /** Called after each successful heartbeat with the count so far (progress display, metrics). */
  onHeartbeat?: ((beats: number) => void) | undefined;
}

type Outcome = { kind: 'complete'; output: ToolObject } | { kind: 'error'; message: string; cause: unknown };

/**
 * Runs one pending tool call from start to terminal report. The heartbeat starts at once, beside
 * the handler; the input is parsed with the tool's schema (a failure is reported as ERROR without
 * running the handler); a thrown error becomes ERROR with its message; the output is checked
 * against the output schema. The heartbeat is stopped, and its beat in flight awaited, before the
 * response or failure is sent; that report is retried on connection errors and 5xx. When the
 * heartbeat loses the call the handler's signal aborts with a `ToolCallLostError` and nothing is
 * reported. Resolves with what happened; rejects only when `signal` aborts or the report fails for
 * good.
 *
 * @example
 * const reply = await client.messages.send(sessionId, { content: 'Weather in Paris?' });
 * for (const pending of reply.pendingTools) {
 *   const result = await runTool(client, {
 *     sessionId, pending, tool: getWeather, heartbeatTimeoutMs: reply.heartbeatTimeoutMs,
 *   });
 *   console.log(result.status); // 'COMPLETE'
 * }
 * await client.messages.send(sessionId, {}); // resume
 */
export async function runTool<TTool extends AnyTool>(
  client: ToolClient | ToolTransport,
  options: RunToolOptions<TTool>,
): Promise<ToolRunResult<TTool>> {
  const transport = 'tools' in client ? client.tools : client;
  const { sessionId, pending, tool, signal } = options;
  const base = { requestId: pending.requestId, name: pending.name };
  const { maxBodyBytes } = options;
  if (maxBodyBytes !== undefined && !(maxBodyBytes > 0)) {
    throw new RangeError(`runTool: maxBodyBytes must be a positive number of bytes, got ${maxBodyBytes}`);
  }
  if (signal?.aborted) throw abortError(signal);

  const heartbeat = new Heartbeat(transport, {
    sessionId,
    requestId: pending.requestId,
    heartbeatTimeoutMs: options.heartbeatTimeoutMs,
    signal,
    random: options.random,
    onBeatError: options.onHeartbeatError,
    onBeat: options.onHeartbeat,
  }).start();
  const handler = signal ? linkedSignal(heartbeat.lost, signal) : undefined;
  const handlerSignal = handler ? handler.signal : heartbeat.lost;
  const ctx: ToolContext = {
    signal: handlerSignal,
    sessionId,
    requestId: pending.requestId,
    name: pending.name,
    rawInput: pending.input,
  };

  let outcome: Outcome | undefined;
  try {
    // The handler may ignore its signal; the race lets the run end when the call is lost anyway.
    outcome = await raceSignal(execute(tool, pending, ctx), heartbeat.lost, ...(signal ? [signal] : []));
  } catch {
    // Only the race's signal rejects here: execute() never throws.
  }
  await heartbeat.stop();
  handler?.unlink();
  if (heartbeat.lostError) return lost(base, heartbeat.lostError);
  if (signal?.aborted || outcome === undefined) throw abortError(signal);

  let settled = outcome.kind === 'complete' ? checkOutputSize(outcome, pending.name, options) : outcome;
  const report = (): Promise<void> => {
    const current = settled;
    return reportWithRetry(
      (requestOptions) =>
        current.kind === 'complete'
          ? transport.respond(sessionId, pending.requestId, current.output, requestOptions)
          : transport.fail(sessionId, pending.requestId, current.message, requestOptions),
      { signal, maxAttempts: options.maxReportAttempts, random: options.random },
    );
  };
  try {
    try {
      await report();
    } catch (error) {
      // A limit lower than assumed: the server's 413 names it, and the model hears of it.
      if (settled.kind !== 'complete' || !isPayloadTooLargeError(error)) throw error;
      const maxBytes = error.details?.maxBytes;
      const tooLarge = toolOutputTooLarge(
        pending.name,
        responseBodyBytes(settled.output),
        typeof maxBytes === 'number' ? maxBytes : undefined,
        error,
      );
      settled = { kind: 'error', message: tooLarge.message, cause: tooLarge };
      await report();
    }
  } catch (error) {
    if (isConflictError(error)) {
      return {
        ...base,
        status: 'ALREADY_SETTLED',
        error: 'The call was already settled (409): the first terminal report wins',
        cause: error,
      };
    }
    if (isNotFoundError(error)) {
      const gone = new ToolCallLostError(
        `Tool call ${pending.requestId} (session ${sessionId}) no longer exists`,
        {
          reason: 'NOT_FOUND',
          sessionId,
          requestId: pending.requestId,
          cause: error,
        },
      );
      return lost(base, gone);
    }
    if (signal?.aborted) throw abortError(signal);
    // Keep the result: the caller can send it again later (an identical repeat is harmless).
    throw new ToolReportError(
      `The result of tool call ${pending.requestId} (session ${sessionId}) could not be reported: ${
        error instanceof Error ? error.message : String(error)
      }`,
      {
        sessionId,
        requestId: pending.requestId,
        report:
          settled.kind === 'complete'
            ? { kind: 'complete', output: settled.output }
            : { kind: 'error', message: settled.message },
        cause: error,
      },
    );
  }
  return settled.kind === 'complete'
    ? { ...base, status: 'COMPLETE', output: settled.output as ToolRunOutput<TTool> }
    : { ...base, status: 'ERROR', error: settled.message, cause: settled.cause };
}

/**
 * Reports a call for a tool this worker does not have as ERROR, naming the tools it has, so the
 * model can recover. Used by `runToolLoop`; the report is retried like any other.
 */
export async function reportUnknownTool(
  client: ToolClient | ToolTransport,
  options: {
    sessionId: string;
    pending: Pick<PendingTool, 'requestId' | 'name'>;
    available: readonly string[];
    signal?: AbortSignal | undefined;
  },
): Promise<ToolRunResult> {
  const transport = 'tools' in client ? client.tools : client;
  const { sessionId, pending } = options;
  const list = options.available.length > 0 ? options.available.join(', ') : '(none)';
  const message = `Unknown tool "${pending.name}". Available tools: ${list}`;
  const base = { requestId: pending.requestId, name: pending.name };
  try {
    await reportWithRetry((o) => transport.fail(sessionId, pending.requestId, message, o), {
      signal: options.signal,
    });
  } catch (error) {
    if (isConflictError(error)) {
      return {
        ...base,
        status: 'ALREADY_SETTLED',
        error: 'The call was already settled (409)',
        cause: error,
      };
    }
    throw error;
  }
  return { ...base, status: 'ERROR', error: message };
}

async function execute(
  tool: AnyTool,
  pending: Pick<PendingTool, 'name' | 'input'>,
  ctx: ToolContext,
): Promise<Outcome> {
  const input = await validateWith(tool.input, pending.input);
  if ('issues' in input) {
    // The model gets the schema library's own issue texts, so it can correct its input.
    return {
      kind: 'error',
      message: `Invalid input for tool "${pending.name}":\n${formatIssues(input.issues)}`,
      cause: input.issues,
    };
  }
  let raw: unknown;
  try {
    raw = await tool.run(input.value, ctx);
  } catch (error) {
    return { kind: 'error', message: errorMessage(error, pending.name), cause: error };
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    const got = raw === null ? 'null' : Array.isArray(raw) ? 'an array' : typeof raw;
    return {
      kind: 'error',
      message: `Tool "${pending.name}" returned ${got}; a tool output must be an object`,
      cause: raw,
    };
  }
  let output = raw as ToolObject;
  if (tool.output) {
    const checked = await validateWith(tool.output, raw);
    if ('issues' in checked) {
      return {
        kind: 'error',
        message: `Tool "${pending.name}" returned output that does not match its output schema:\n${formatIssues(checked.issues)}`,
        cause: checked.issues,
      };
    }
    output = checked.value as ToolObject;
  }
  if (Object.hasOwn(output, RESERVED_OUTPUT_FIELD)) {
    return {
      kind: 'error',
      message: `Tool "${pending.name}" returned a "${RESERVED_OUTPUT_FIELD}" field, which the protocol reserves`,
      cause: output,
    };
  }
  return { kind: 'complete', output };
}

/** A complete outcome, or an ERROR when its response body would be over the body limit. */
function checkOutputSize(
  outcome: Outcome & { kind: 'complete' },
  name: string,
  options: Pick<RunToolOptions, 'maxBodyBytes'>,
): Outcome {
  const maxBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  let bytes: number;
  try {
    bytes = responseBodyBytes(outcome.output);
  } catch (error) {
    // A bigint or a cycle: no report could carry it, and the model can be told why.
    const reason = error instanceof Error ? error.message : String(error);
    return {
      kind: 'error',
      message: `Tool "${name}" returned output that cannot be sent as JSON: ${reason}`,
      cause: error,
    };
  }
  if (bytes <= maxBytes) return outcome;
  const tooLarge = toolOutputTooLarge(name, bytes, maxBytes);
  return { kind: 'error', message: tooLarge.message, cause: tooLarge };
}

function errorMessage(error: unknown, name: string): string {
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : '';
  // The server needs a non-empty message, and the model needs something to react to.
  return message.trim() !== '' ? message : `Tool "${name}" failed without a message`;
}

function lost(base: ToolRunBase, error: ToolCallLostError): ToolRunLost {
  return { ...base, status: 'LOST', error: error.message, cause: error };
}

function abortError(signal: AbortSignal | undefined): APIUserAbortError {
  return new APIUserAbortError('Tool run aborted', { cause: signal?.reason });
}
