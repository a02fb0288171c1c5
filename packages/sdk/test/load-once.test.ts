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

  it('keeps no failed load: the call after a failed import loads again, and its callers get the error', async () => {
    let imports = 0;
    const load = loadOnce(async () => {
      imports++;
      if (imports === 1) throw new TypeError('Failed to fetch dynamically imported module');
      return { feature: 'tool loop' };
    });
    await expect(load()).rejects.toThrow('Failed to fetch dynamically imported module');
    expect(await load()).toEqual({ feature: 'tool loop' });
    expect(await load()).toEqual({ feature: 'tool loop' });
    expect(imports).toBe(2);
  });
});
