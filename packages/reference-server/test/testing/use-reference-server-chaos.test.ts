import { useReferenceServer } from '@parley/reference-server/vitest';
import { describe, expect, it } from 'vitest';

const parley = useReferenceServer({
  chaos: { rate: 0.5, seed: 2026, kinds: ['status'], match: { path: '/v1/messages/*' } },
});

/** The statuses of ten message exports in a new session. */
async function tenReads(): Promise<number[]> {
  const { sessionId } = (await (await parley.fetch('/v1/sessions', { method: 'POST' })).json()) as {
    sessionId: string;
  };
  const statuses: number[] = [];
  for (let i = 0; i < 10; i++) statuses.push((await parley.fetch(`/v1/messages/${sessionId}`)).status);
  return statuses;
}

let first: number[] | undefined;

describe('useReferenceServer with seeded chaos', () => {
  it('a test gets faults from the seed', async () => {
    first = await tenReads();
    expect(first).toContain(503);
    expect(first).toContain(200);
  });

  it('the next test making the same requests gets the same faults (reset gives chaos fresh counts)', async () => {
    expect(await tenReads()).toEqual(first);
  });

  it('tests running alongside each other do not disturb each other: faults are counted per session', async () => {
    const [a, b] = await Promise.all([tenReads(), tenReads()]);
    expect(a).toEqual(first);
    expect(b).toEqual(first);
  });
});
