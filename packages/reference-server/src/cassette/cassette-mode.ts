/** How a test file uses its cassette: the modes of Polly.js and VCR. */
export type CassetteMode = 'replay' | 'record' | 'auto';

/** The environment variable that overrides every cassette's mode (e.g. `record` to record all again). */
export const CASSETTE_MODE_ENV = 'PARLEY_CASSETTE_MODE';

const MODES: readonly string[] = ['replay', 'record', 'auto'];

/**
 * What a cassette does in this run: `replay` reads the file, `record` writes it through the
 * upstream. `auto` replays when the file exists, else records. `envMode` (from
 * {@link CASSETTE_MODE_ENV}) wins over `mode`. Throws when recording is needed but there is no
 * upstream, or the environment names no mode.
 */
export function resolveCassetteMode(input: {
  file: string;
  mode: CassetteMode | undefined;
  envMode: string | undefined;
  exists: boolean;
  hasUpstream: boolean;
}): 'replay' | 'record' {
  const { file, exists, hasUpstream } = input;
  const envMode = input.envMode?.trim() === '' ? undefined : input.envMode?.trim();
  if (envMode !== undefined && !MODES.includes(envMode)) {
    throw new Error(`${CASSETTE_MODE_ENV}=${envMode} is not a cassette mode: use replay, record or auto`);
  }
  const mode = (envMode as CassetteMode | undefined) ?? input.mode ?? 'auto';
  const resolved = mode === 'auto' ? (exists ? 'replay' : 'record') : mode;
  if (resolved === 'record' && !hasUpstream) {
    const why =
      mode === 'auto'
        ? `cassette ${file} does not exist yet, and recording it`
        : `recording cassette ${file}`;
    throw new Error(
      `${why} needs upstream: { url } (the deployment whose answers are recorded); ` +
        'give it, or record the cassette first',
    );
  }
  return resolved;
}
