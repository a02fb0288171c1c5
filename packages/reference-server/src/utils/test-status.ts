/**
 * What a runner tells a shared server of one of its tests (`POST /_parley/cassette/outcome`):
 * `running` when it begins, then how it ended. A recording is written only for a test that ended
 * `passed`: a failed, skipped or unfinished one (its runner died first) keeps the recording the
 * cassette holds.
 */
export const TEST_STATUSES = ['running', 'passed', 'failed', 'skipped'] as const;

/** One of {@link TEST_STATUSES}. */
export type TestStatus = (typeof TEST_STATUSES)[number];
