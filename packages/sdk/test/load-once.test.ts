import { describe, expect, it } from 'vitest';
import { loadOnce } from '../src/internal/load-once.js';

describe('a feature loaded on first use (loadOnce)', () => {
  it('imports its module on the first call only: later calls get the same promise', async () => {
    let imports = 0;
    const load = loadOnce(async () => {
      imports++;
      return { feature: 'recovery' };
    });
    const first = load();
    expect(load()).toBe(first);
    expect(await load()).toEqual({ feature: 'recovery' });
    expect(imports).toBe(1);
  });
});
