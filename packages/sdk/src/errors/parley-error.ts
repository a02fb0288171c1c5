/**
 * Every error the SDK throws is a `ParleyError`. Guards (`isParleyError`, `isNotFoundError`, ...)
 * check a `Symbol.for` brand and `name` rather than `instanceof`, so they work across duplicate
 * copies of the package and across realms.
 */
const BRAND = Symbol.for('parley.error');

/** Base class of every error the SDK throws. */
export class ParleyError extends Error {
  override readonly name: string = 'ParleyError';
  readonly [BRAND] = true;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
  }
}

/** True for any error thrown by any copy of the SDK. */
export function hasParleyBrand(value: unknown): value is ParleyError {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
}
