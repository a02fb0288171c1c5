import type { ReferenceServer } from '../create-reference-server.js';
import type { TestRun } from './test-run.js';

/** `fault {"status":503} for POST /v1/messages/* (1 of it left)`. */
export function describeFault(fault: ReferenceServer['faults']['pending'][number]): string {
  const { match, times, ...rest } = fault;
  const target =
    match?.method === undefined && match?.path === undefined
      ? ''
      : ` for ${match.method?.toUpperCase() ?? 'any method'} ${match.path === undefined ? 'any path' : String(match.path)}`;
  return `fault ${JSON.stringify(rest)}${target} (${times} left)`;
}

/** The faults a test queued and never took, one line each: `fault … queued in test "…"`. */
export async function describeFaultsLeft({ scope, testId }: TestRun): Promise<string[]> {
  return (await scope.pendingFaults()).map(
    (fault) => `${describeFault(fault)} queued in test ${JSON.stringify(testId)}`,
  );
}
