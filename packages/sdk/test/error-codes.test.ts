import { ERROR_CODES as PROTOCOL_ERROR_CODES } from '@parley/protocol';
import { ERROR_CODES } from '@parley/sdk';
import { expect, test } from 'vitest';

test("the SDK's error-code table equals the protocol's (the SDK keeps its own copy so it needs no zod)", () => {
  expect(ERROR_CODES).toEqual(PROTOCOL_ERROR_CODES);
});
