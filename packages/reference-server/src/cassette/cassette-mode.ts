/**
 * How a test file uses its cassette: the modes of Polly.js and VCR. `auto` is Polly's default,
 * `replay` with `recordIfMissing`: what the file holds replays, what it lacks is recorded (with an
 * upstream); `record-missing` is that, asked for by name.
 */
export type CassetteMode = 'replay' | 'record' | 'auto' | 'record-missing';

/** The environment variable that overrides every cassette's mode (e.g. `record` to record all again). */
export const CASSETTE_MODE_ENV = 'PARLEY_CASSETTE_MODE';

const MODES: readonly string[] = ['replay', 'record', 'auto', 'record-missing'];

/**
 * What a cassette does in this run: `replay` reads the file, `record` writes it through the
 * upstream, `record-missing` replays what the file holds and records what it lacks. `auto` records
 * a file that does not exist yet; one that does it replays, recording what it lacks when there is
 * an upstream to ask (`record-missing`), as Polly.js's `recordIfMissing` does, else replaying only.
 * `envMode` (from {@link CASSETTE_MODE_ENV}) wins over `mode`.
 * Throws for an unknown mode, and when recording is needed but there is no upstream.
 */
export function resolveCassetteMode(input: {
  file: string;
  mode: CassetteMode | undefined;
  envMode: string | undefined;
  exists: boolean;
  hasUpstream: boolean;
}): 'replay' | 'record' | 'record-missing' {
  const { file, exists, hasUpstream } = input;
  const envMode = input.envMode?.trim() === '' ? undefined : input.envMode?.trim();
  if (envMode !== undefined && !MODES.includes(envMode)) {
    throw new Error(
      `${CASSETTE_MODE_ENV}=${envMode} is not a cassette mode: use replay, record, auto or record-missing`,
    );
  }
  if (input.mode !== undefined && !MODES.includes(input.mode)) {
    throw new Error(
      `cassette mode ${JSON.stringify(input.mode)} is not a cassette mode: use replay, record, auto or record-missing`,
    );
  }
  const mode = (envMode as CassetteMode | undefined) ?? input.mode ?? 'auto';
  const resolved = mode !== 'auto' ? mode : !exists ? 'record' : hasUpstream ? 'record-missing' : 'replay';
  if (resolved !== 'replay' && !hasUpstream) {
    const why =
      mode === 'auto'
        ? `cassette ${file} does not exist yet, and recording it`
        : resolved === 'record-missing'
          ? `recording what cassette ${file} lacks`
          : `recording cassette ${file}`;
    throw new Error(
      `${why} needs upstream: { url } (the deployment whose answers are recorded); ` +
        'give it, or record the cassette first',
    );
  }
  return resolved;
}
