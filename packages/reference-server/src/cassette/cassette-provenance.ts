import type { Clock } from '../time/clock.js';
import { PARLEY_VERSION } from '../utils/parley-version.js';
import type { Cassette } from './cassette-format.js';

/** Where and when a cassette was recorded: the fields a recorder writes at its top. */
export type CassetteProvenance = Pick<Cassette, 'recordedAt' | 'upstream' | 'parleyVersion'>;

/**
 * The provenance of a recording made now from `upstream`: the time on the server's clock, the
 * upstream's origin only (scheme, host and port: a `user:password@` or a path with a key in it is
 * never written), and this package's version.
 */
export function provenanceOf(clock: Pick<Clock, 'now'>, upstream: string | undefined): CassetteProvenance {
  return {
    recordedAt: new Date(clock.now()).toISOString(),
    ...(upstream === undefined ? {} : { upstream: upstreamOrigin(upstream) }),
    parleyVersion: PARLEY_VERSION,
  };
}

/** `https://user:key@parley.example.com/base?x` → `https://parley.example.com`. */
export function upstreamOrigin(url: string): string {
  return new URL(url).origin;
}
