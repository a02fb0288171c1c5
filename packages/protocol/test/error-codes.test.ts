import { readFileSync } from 'node:fs';
import { ERROR_CODES, ErrorBodySchema, statusOf } from '@parley/protocol';
import { describe, expect, it } from 'vitest';

const errorsDoc = readFileSync(new URL('../../../docs/errors.md', import.meta.url), 'utf8');

describe('the error-code table', () => {
  it('gives every code an HTTP error status', () => {
    for (const code of Object.keys(ERROR_CODES) as Array<keyof typeof ERROR_CODES>) {
      expect(statusOf(code)).toBeGreaterThanOrEqual(400);
      expect(statusOf(code)).toBeLessThan(600);
    }
  });

  it('documents every code with its status in docs/errors.md', () => {
    for (const [code, { status }] of Object.entries(ERROR_CODES)) {
      expect(errorsDoc).toMatch(new RegExp(`\\| \`${code}\` \\| ${status}\\b`));
    }
  });

  it('accepts the one error body shape and rejects others', () => {
    expect(ErrorBodySchema.safeParse({ error: { code: 'x', message: 'y' } }).success).toBe(true);
    expect(ErrorBodySchema.safeParse({ message: 'y' }).success).toBe(false);
  });
});
