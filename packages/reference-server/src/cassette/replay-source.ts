import type { Model } from '../model/model.js';
import { readCassetteFile } from './cassette-file.js';
import type { Cassette } from './cassette-format.js';
import { createReplayModel, type ReplayOptions } from './replay-model.js';

/** The `replay` option: a path, a parsed cassette, or either with its settings. */
export type ReplaySetting =
  | string
  | Cassette
  | (ReplayOptions & { cassette: string | Cassette; name?: string });

/** The replay model of a `replay` option; a path is read (and validated) at once. */
export function replayModelFor(
  setting: ReplaySetting,
  context: { sessionOrder?: (sessionId: string) => number | undefined },
): Model {
  const config = typeof setting === 'object' && 'cassette' in setting ? setting : { cassette: setting };
  const {
    cassette: given,
    name: givenName,
    ...options
  } = config as ReplayOptions & {
    cassette: string | Cassette;
    name?: string;
  };
  const cassette = typeof given === 'string' ? readCassetteFile(given) : given;
  const name = givenName ?? (typeof given === 'string' ? given : 'given in code');
  return createReplayModel({ ...options, cassette, name, ...context });
}
