import type { ProxyExchange, ProxyObserver } from '../proxy/proxy-exchange.js';
import type { Clock } from '../time/clock.js';
import { systemClock } from '../time/system-clock.js';
import { checkOptions, type OptionKeys } from '../utils/check-options.js';
import { buildCassette } from './cassette-builder.js';
import type { Cassette } from './cassette-format.js';
import { provenanceOf } from './cassette-provenance.js';
import { type CassetteRedaction, REDACTION_KEYS, redactCassette } from './cassette-redaction.js';
import { writeCassetteFile } from './write-cassette-file.js';

/** Options of {@link createCassetteRecorder}. */
export interface CassetteRecorderOptions {
  /** Where `save()` (and `close()`, when the server stops) writes the cassette. */
  file?: string;
  /** Fields and strings to keep out of the cassette; `Authorization` and other headers never go in. */
  redact?: CassetteRedaction;
  /** The clock of `recordedAt`. Default the system clock (the server passes its own). */
  clock?: Pick<Clock, 'now'>;
  /** The deployment recorded: only its origin is written (`upstream`), never credentials or a path. */
  upstream?: string;
  /**
   * Labels each session with the test that created it (`per: 'test'`): called when the proxy tells
   * the recorder of a `POST /v1/sessions`, which is before the client has its answer.
   */
  testName?: () => string | undefined;
}

/** Every key of {@link CassetteRecorderOptions}: a new option is one more line here (TypeScript fails until it is). */
export const RECORDER_OPTION_KEYS = {
  file: 'string',
  redact: 'object',
  clock: 'object',
  upstream: 'string',
  testName: 'function',
} as const satisfies OptionKeys<CassetteRecorderOptions>;

/** A proxy observer that records the traffic it is told of as a cassette. */
export interface CassetteRecorder extends ProxyObserver {
  /** The cassette of everything recorded so far, redacted. */
  cassette(): Cassette;
  /** Writes {@link cassette} to `file` as stable, pretty-printed JSON. */
  save(): Promise<void>;
  /** Saves to `file` when one was given; the proxy calls it when the server stops. */
  close(): Promise<void>;
}

/**
 * Records the exchanges of a checking proxy (`upstream.observers`) as a cassette: when, from where
 * and by which version it was recorded, then per session in order of creation, its customizations
 * and its model calls (see docs/testing.md).
 *
 * @example
 * const recorder = createCassetteRecorder({ file: 'test/cassettes/weather.json' });
 * const server = createReferenceServer({ upstream: { url, observers: [recorder] } });
 * // ... run the conversation through the server ...
 * await server.close(); // the recorder writes the file
 */
export function createCassetteRecorder(options: CassetteRecorderOptions = {}): CassetteRecorder {
  checkOptions(options, RECORDER_OPTION_KEYS, 'createCassetteRecorder()');
  checkOptions(options.redact, REDACTION_KEYS, 'createCassetteRecorder() redact');
  const exchanges: ProxyExchange[] = [];
  const tests = new Map<number, string>();
  const clock = options.clock ?? systemClock;
  const cassette = () => {
    const built = buildCassette(exchanges, (seq) => tests.get(seq));
    return redactCassette({ ...built, ...provenanceOf(clock, options.upstream) }, options.redact);
  };
  const save = async () => {
    if (options.file === undefined) throw new Error('The cassette recorder has no file to save to');
    await writeCassetteFile(options.file, cassette());
  };
  return {
    onExchange(exchange) {
      exchanges.push(exchange);
      const test = options.testName?.();
      if (test !== undefined && isSessionCreate(exchange)) tests.set(exchange.seq, test);
    },
    cassette,
    save,
    close: async () => {
      if (options.file !== undefined) await save();
    },
  };
}

/** `POST /v1/sessions`: the exchange that starts a recorded session. */
export function isSessionCreate(exchange: ProxyExchange): boolean {
  return exchange.method.toUpperCase() === 'POST' && /^\/v1\/sessions\/?(\?|$)/.test(exchange.path);
}
