// Names a plain-JavaScript typo in an options object, as a warning in development.
//
// TypeScript passes a wider object where a narrower one is expected (a stream's options given to
// `send`, a config object with fields of its own), so a key the call does not take is valid and is
// never refused. A key that is not an option of the SDK but is within a typo of one the object
// lacks (`tokn` for `token`, `maxStep` for `maxSteps`) is almost always a slip, so it is named, as
// Jest's config validator warns about unknown keys; a value of the wrong type is an error where
// the value is used (`wrong-value.ts`). Like React's warnings, it is a development aid written to
// the console: a production build (`process.env.NODE_ENV === 'production'`, which Vite and esbuild
// set when they minify) drops it with its list of names.

/**
 * Every option name of the SDK's public options types (test/types/option-names.test-d.ts fails
 * until a new one is added): an unknown key near one of these is named.
 */
export const OPTION_NAMES = [
  'abortGraceMs',
  'approve',
  'attempt',
  'backoff',
  'baseUrl',
  'concurrency',
  'content',
  'customizations',
  'definition',
  'description',
  'endsLoop',
  'exclusive',
  'execArgv',
  'fetch',
  'firstEventTimeoutMs',
  'getToken',
  'headers',
  'heartbeat',
  'heartbeatTimeoutMs',
  'heldSince',
  'idleTimeoutMs',
  'includeDeleted',
  'input',
  'lastIndex',
  'leased',
  'leaseToken',
  'logger',
  'logLevel',
  'maxAttempts',
  'maxBodyBytes',
  'maxReportAttempts',
  'maxRetries',
  'maxSteps',
  'middleware',
  'model',
  'name',
  'needsApproval',
  'onAttempt',
  'onBeat',
  'onBeatError',
  'onExit',
  'onHeartbeat',
  'onHeartbeatError',
  'onStep',
  'onText',
  'onToolStart',
  'output',
  'partialInput',
  'pending',
  'priceModel',
  'prices',
  'random',
  'reattach',
  'receivedAt',
  'recover',
  'repairToolInput',
  'requestId',
  'resume',
  'run',
  'sessionId',
  'signal',
  'stopWhen',
  'stream',
  'streamFirstEventTimeoutMs',
  'streamIdleTimeoutMs',
  'timeoutMs',
  'token',
  'tool',
  'tools',
  'toolTimeoutMs',
  'traceContext',
  'tracer',
  'workerData',
] as const;

const NAMES: readonly string[] = OPTION_NAMES;

/**
 * The edits (case ignored) that make `key` a typo of `name`, or `undefined` when it is not near: at
 * most 1 edit for names up to 4 letters, 2 beyond. `retry` is 4 edits from `fetch`, not near.
 */
export function typoDistance(key: string, name: string): number | undefined {
  const distance = editDistance(key.toLowerCase(), name.toLowerCase());
  return distance <= (name.length <= 4 ? 1 : 2) ? distance : undefined;
}

/** Levenshtein distance (insertions, deletions, substitutions), one row kept. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current[j] = Math.min(substitution, (previous[j] as number) + 1, (current[j - 1] as number) + 1);
    }
    previous = current;
  }
  return previous[b.length] as number;
}

/**
 * The warning for a key of `options` that is no option of the SDK but near one the object lacks:
 * `Unknown option "tokn" for new Parley(); did you mean "token"?`; `undefined` when there is none.
 */
export function unknownOptionWarning(options: unknown, where: string): string | undefined {
  if (typeof options !== 'object' || options === null) return undefined;
  for (const key of Object.keys(options)) {
    if (NAMES.includes(key)) {
      // Nested options are checked alike (`recover: { maxAttempt: 3 }`).
      const nested =
        key === 'recover'
          ? unknownOptionWarning((options as { recover?: unknown }).recover, `${where} recover`)
          : undefined;
      if (nested !== undefined) return nested;
      continue;
    }
    let meant: { name: string; distance: number } | undefined;
    for (const name of NAMES) {
      const distance = Object.hasOwn(options, name) ? undefined : typoDistance(key, name);
      if (distance !== undefined && distance < (meant?.distance ?? Infinity)) meant = { name, distance };
    }
    if (meant !== undefined) {
      return `[parley] Unknown option ${JSON.stringify(key)} for ${where}; did you mean ${JSON.stringify(meant.name)}?`;
    }
  }
  return undefined;
}

let warned: Set<string> | undefined;

/**
 * In development, writes a typo in `options` ({@link unknownOptionWarning}) to `console.warn`, once
 * per typo and call (a loop that repeats it is not flooded). Never throws.
 */
export function warnUnknownOptions(options: unknown, where: string): void {
  if (typeof process !== 'undefined' && process.env.NODE_ENV !== 'production') {
    const line = unknownOptionWarning(options, where);
    warned ??= new Set();
    if (line === undefined || warned.has(line)) return;
    warned.add(line);
    try {
      console.warn(line);
    } catch {
      // A console that throws loses its line, as every log line of the SDK.
    }
  }
}
