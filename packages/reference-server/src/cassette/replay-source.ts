import type { Model, ModelEvent } from '../model/model.js';
import { readCassetteFile } from './cassette-file.js';
import { type Cassette, parseCassette } from './cassette-format.js';
import type { ReplayOptions, ReplaySource } from './replay-model.js';

/** The `replay` option: a path, a parsed cassette, or either with its settings. */
export type ReplaySetting =
  | string
  | Cassette
  | (ReplayOptions & { cassette: string | Cassette; name?: string });

/**
 * The replay model of a `replay` option. A path is read and validated at once, and a parsed
 * cassette validated, so a bad one fails the server's creation; the model itself is loaded with the first model call, so a server (or a
 * browser page) that does not replay does not carry it.
 */
export function replayModelFor(setting: ReplaySetting, context: Pick<ReplaySource, 'sessionOrder'>): Model {
  const config = typeof setting === 'object' && 'cassette' in setting ? setting : { cassette: setting };
  const {
    cassette: given,
    name: givenName,
    ...options
  } = config as ReplayOptions & {
    cassette: string | Cassette;
    name?: string;
  };
  const name = givenName ?? (typeof given === 'string' ? given : 'given in code');
  // A parsed cassette is checked as a file is, so that a bad one fails the server's creation too.
  const cassette = typeof given === 'string' ? readCassetteFile(given) : parseCassette(given, name);
  let model: Promise<Model> | undefined;
  return async function* replay(request): AsyncGenerator<ModelEvent> {
    model ??= import('./replay-model.js').then((m) =>
      m.createReplayModel({ ...options, cassette, name, ...context }),
    );
    yield* (await model)(request);
  };
}
