import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

// The GitHub Action cannot run here: its step scripts run in the container stage
// (scripts/container/action-test.sh). This checks what joins them on a runner: action.yml itself.
const root = fileURLToPath(new URL('../..', import.meta.url));
const text = readFileSync(join(root, 'action.yml'), 'utf8');

interface Step {
  run?: string;
  uses?: string;
  if?: string;
  env?: Record<string, string>;
  with?: Record<string, string>;
}
interface Action {
  name: string;
  inputs: Record<string, { description: string; default?: string }>;
  runs: { using: string; steps: Step[] };
}

describe('action.yml, the GitHub Action that starts the reference server', () => {
  const action = parse(text, { strict: true, uniqueKeys: true }) as Action;

  it('is valid YAML: a composite action with a description for every input', () => {
    expect(action.runs.using).toBe('composite');
    for (const [name, input] of Object.entries(action.inputs)) {
      expect({
        name,
        described: typeof input.description === 'string' && input.description.length > 0,
      }).toEqual({
        name,
        described: true,
      });
    }
  });

  it('reads only inputs it declares', () => {
    const used = new Set([...text.matchAll(/inputs\.([a-z][a-z0-9-]*)/g)].map((m) => m[1]));
    expect([...used].filter((name) => !(name in action.inputs))).toEqual([]);
  });

  it('runs step scripts that exist, and gives each the INPUT_ variables it reads', () => {
    const given = new Set(action.runs.steps.flatMap((step) => Object.keys(step.env ?? {})));
    const scripts = action.runs.steps.flatMap((step) =>
      [...(step.run ?? '').matchAll(/\$GITHUB_ACTION_PATH\/([\w./-]+)/g)].map((m) => m[1] as string),
    );
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts)
      expect({ script, exists: existsSync(join(root, script)) }).toEqual({ script, exists: true });
    const dir = join(root, 'scripts/action');
    const read = new Set(
      readdirSync(dir)
        .filter((file) => file.endsWith('.sh'))
        .flatMap((file) =>
          [...readFileSync(join(dir, file), 'utf8').matchAll(/\bINPUT_[A-Z_]+[A-Z]\b/g)].map((m) => m[0]),
        ),
    );
    expect([...read].filter((name) => !given.has(name))).toEqual([]);
  });
});
