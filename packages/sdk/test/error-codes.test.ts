import { ERROR_CODES as PROTOCOL_ERROR_CODES } from '@parley/protocol';
import { ERROR_CODES } from '@parley/sdk';
import { expect, test } from 'vitest';

test("the SDK's error-code table is the protocol's one table, not a copy", () => {
  expect(ERROR_CODES).toBe(PROTOCOL_ERROR_CODES);
});
