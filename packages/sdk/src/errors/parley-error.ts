/**
 * The key of the brand every SDK error carries: the names of its classes, most derived first. A
 * `Symbol.for` key, so that every copy of the SDK and every realm reads the same one.
 */
const BRAND = Symbol.for('parley.error');

/** The brand name of each SDK error class; a class that is not here (a user's subclass) has none. */
const brands = new WeakMap<abstract new (...args: never[]) => unknown, string>();

/**
 * Makes `errorClass` answer `instanceof` by brand: an error built by it or by a subclass, in any
 * copy of the SDK or any realm, is an instance of it.
 *
 * @internal
 */
export function brand(errorClass: abstract new (...args: never[]) => ParleyError, name: string): void {
  brands.set(errorClass, name);
}

function brandsOf(value: unknown): readonly unknown[] | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const names = (value as Record<symbol, unknown>)[BRAND];
  // `Array.isArray` is true for an array of another realm too.
  return Array.isArray(names) ? names : undefined;
}

/**
 * `static [Symbol.hasInstance]` of every SDK error class, `this` being the class right of
 * `instanceof`. A function of its own rather than a static method: esbuild rewrites `this` in a
 * static method of a class with a static block to the class's own name, which would make every
 * subclass answer as `ParleyError`.
 *
 * @internal
 */
function hasBrandOf(this: abstract new (...args: never[]) => unknown, value: unknown): boolean {
  const name = brands.get(this);
  if (name === undefined) return Function.prototype[Symbol.hasInstance].call(this, value);
  return brandsOf(value)?.includes(name) ?? false;
}

/**
 * Base class of every error the SDK throws. `instanceof` reads a brand rather than the prototype
 * chain, so `error instanceof NotFoundError` holds for an error thrown by another copy of the SDK
 * (two versions in one app) or in another realm (a `node:vm` context, an iframe).
 */
export class ParleyError extends Error {
  static {
    brand(ParleyError, 'ParleyError');
  }

  /**
   * True when `value` carries this class's brand; for a class without one, the prototype chain decides.
   *
   * @internal
   */
  static override readonly [Symbol.hasInstance] = hasBrandOf;

  override readonly name: string = 'ParleyError';

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    const names: string[] = [];
    for (let c: unknown = new.target; typeof c === 'function' && c !== Error; c = Object.getPrototypeOf(c)) {
      const name = brands.get(c as abstract new (...args: never[]) => unknown);
      if (name !== undefined) names.push(name);
    }
    Object.defineProperty(this, BRAND, { value: Object.freeze(names) });
  }
}
