import type { Clock } from '../time/clock.js';
import { oneOf } from '../utils/check-options.js';
import type { ReplayConfig } from './cassette-config.js';
import { expiryVerdict } from './cassette-expiry.js';
import { loadCassette } from './cassette-file.js';
import type { Cassette } from './cassette-format.js';

/** Checks a replay's settings and reads its cassette; the file to record again when it expired under `'record'`. */
export function replayPlan(
  config: ReplayConfig,
  hasUpstream: boolean,
  deps: { clock: Clock; warn(line: string): void },
): { cassette: Cassette } | { rerecord: string } {
  const { cassette, onMismatch, recordMissing, per, expiryStrategy } = config;
  const name = config.name ?? (typeof cassette === 'string' ? cassette : 'given in code');
  oneOf('onMismatch', onMismatch, ['error', 'stand-in', 'upstream']);
  oneOf('per', per, ['file', 'test']);
  if (per === 'test' && (config.match?.sessions ?? 'order') !== 'order') {
    throw new TypeError(
      `replay of ${name}: per: 'test' finds sessions by test and order, so match.sessions does not apply`,
    );
  }
  const needsUpstream =
    onMismatch === 'upstream' ? "onMismatch: 'upstream'" : recordMissing ? 'recordMissing' : undefined;
  if (hasUpstream && needsUpstream === undefined && expiryStrategy !== 'record') {
    throw new Error(
      'createReferenceServer: pass either `upstream` or `replay`: both would answer /v1. With `replay`, ' +
        "`upstream` answers only what the cassette lacks: onMismatch: 'upstream' or recordMissing",
    );
  }
  if (needsUpstream !== undefined && !hasUpstream) {
    throw new TypeError(
      `replay of ${name}: ${needsUpstream} needs upstream: { url } (the deployment that answers what the cassette lacks)`,
    );
  }
  if (recordMissing && typeof cassette !== 'string') {
    throw new TypeError(
      'replay: recordMissing writes to the cassette file, so give its path, not a parsed cassette',
    );
  }
  const loaded = loadCassette(config);
  if (config.expiresIn === undefined && expiryStrategy === undefined) return { cassette: loaded };
  // A cassette record-missing starts (no file yet) has nothing to expire.
  if (recordMissing && loaded.sessions.length === 0) return { cassette: loaded };
  const verdict = expiryVerdict(loaded, name, config, deps.clock.now(), deps.warn);
  if (verdict === 'replay') return { cassette: loaded };
  if (typeof cassette !== 'string' || !hasUpstream) {
    throw new TypeError(
      `${name} expired and expiryStrategy: 'record' records it again: that needs its file path and upstream: { url }`,
    );
  }
  return { rerecord: cassette };
}
