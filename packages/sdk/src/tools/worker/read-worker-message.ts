import {
  isToolWorkerMessage,
  type WireError,
  type WireThrown,
  type WorkerMessage,
} from './tool-worker-messages.js';

/** What {@link readWorkerMessage} made of one message from a worker. */
export type ReadWorkerMessage =
  /** Not tagged with the worker protocol: some other code in the worker posted it; ignore it. */
  | { kind: 'foreign' }
  | { kind: 'valid'; message: WorkerMessage }
  /** Tagged, but of the wrong shape; `problem` names what was wrong, e.g. `"error" is null`. */
  | { kind: 'malformed'; problem: string };

/**
 * Checks one message a worker posted to its host, field by field. The worker runs code the host
 * does not control (a module can post anything on its port), so a tagged message of the wrong
 * shape must never reach code that would read a property of `undefined` and take the host down.
 * The output's content is not checked here: that it is plain data is the handler's business.
 */
export function readWorkerMessage(data: unknown): ReadWorkerMessage {
  if (!isToolWorkerMessage<WorkerMessage>(data)) return { kind: 'foreign' };
  const message = data as { kind?: unknown; output?: unknown; error?: unknown };
  switch (message.kind) {
    case 'ready':
      return { kind: 'valid', message: data };
    case 'result':
      if (!('output' in message)) return { kind: 'malformed', problem: 'a "result" message has no "output"' };
      return { kind: 'valid', message: data };
    case 'error': {
      const problem = wireErrorProblem(message);
      return problem === undefined
        ? { kind: 'valid', message: data }
        : { kind: 'malformed', problem: `an "error" message: ${problem}` };
    }
    default:
      return {
        kind: 'malformed',
        problem:
          message.kind === undefined
            ? 'a message has no "kind"'
            : `a message has an unknown kind ${describe(message.kind)} (expected "ready", "result" or "error")`,
      };
  }
}

const WIRE_ERROR_FIELDS = {
  name: { required: true },
  message: { required: true },
  stack: { required: false },
  dataPath: { required: false },
} as const satisfies Record<Exclude<keyof WireError, 'cause'>, { required: boolean }>;

function wireErrorProblem(message: { error?: unknown }): string | undefined {
  if (!('error' in message)) return 'it has no "error"';
  const { error } = message;
  const problem = errorFieldsProblem(error, 'error', WIRE_ERROR_FIELDS);
  if (problem !== undefined) return problem;
  const { cause } = error as { cause?: unknown };
  return cause === undefined ? undefined : errorFieldsProblem(cause, 'error.cause', WIRE_THROWN_FIELDS);
}

const WIRE_THROWN_FIELDS = {
  name: { required: true },
  message: { required: true },
  stack: { required: false },
} as const satisfies Record<keyof WireThrown, { required: boolean }>;

/** `"error.name" is missing`: the first field of `value` (named `label`) of the wrong type. */
function errorFieldsProblem(
  value: unknown,
  label: string,
  fields: Record<string, { readonly required: boolean }>,
): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return `"${label}" is ${describe(value)}, not an object`;
  }
  for (const [field, { required }] of Object.entries(fields)) {
    const item = (value as Record<string, unknown>)[field];
    if (item === undefined && !required) continue;
    if (typeof item !== 'string') {
      return item === undefined
        ? `"${label}.${field}" is missing`
        : `"${label}.${field}" is ${describe(item)}, not a string`;
    }
  }
  return undefined;
}

/** A short description of a value for a message: `null`, `an array`, `the number 3`, `"x"`. */
function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
    case 'number':
    case 'boolean':
    case 'bigint':
      return `the ${typeof value} ${String(value)}`;
    case 'undefined':
      return 'undefined';
    case 'object':
      return 'an object';
    default:
      return `a ${typeof value}`;
  }
}
