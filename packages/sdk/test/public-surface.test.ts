import * as root from '@parley/sdk';
import * as tools from '@parley/sdk/tools';
import { describe, expect, it } from 'vitest';

// Issue 25: one small public surface. The root entry holds what most apps use; the tool machinery
// a worker author calls directly is on `@parley/sdk/tools`; tuning constants are read on `defaults`.
describe('the public surface', () => {
  it('the root entry exports at most 40 runtime names', () => {
    expect(Object.keys(root).length).toBeLessThanOrEqual(40);
  });

  it('exports no tuning constant by name (they are fields of the frozen defaults object)', () => {
    const constants = Object.keys(root).filter((name) => /^[A-Z][A-Z0-9_]+$/.test(name));
    expect(constants).toEqual(['ERROR_CODES']);
    expect(Object.isFrozen(root.defaults)).toBe(true);
    expect(root.defaults.tools.maxSteps).toBe(10);
  });

  it('exports no isXxxError guard: instanceof works across copies and realms', () => {
    expect(Object.keys(root).filter((name) => /^is[A-Z]/.test(name))).toEqual([]);
  });

  it('the tool machinery is on @parley/sdk/tools, not on the root', () => {
    for (const name of ['runTool', 'startHeartbeat', 'Heartbeat', 'reportUnknownTool']) {
      expect(Object.keys(tools)).toContain(name);
      expect(Object.keys(root)).not.toContain(name);
    }
  });
});
