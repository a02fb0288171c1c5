/**
 * The key of the brand every SDK error carries: the names of its classes, most derived first. A
 * `Symbol.for` key, so that every copy of the SDK and every realm reads the same one.
 */
const BRAND = Symbol.for('parley.error');

/**
 * The key of each SDK error class's own brand name: a static field each class declares beside its
 * `name`, so a new class is branded where it is written, with no list of classes to keep in step.
 * A class without its own (a user's subclass) has no brand of its own.
 *
 * @internal
 */
export const CLASS_BRAND: unique symbol = Symbol('parley.error.class');

/** The brand name `errorClass` declares itself, not one it inherits. */
function ownBrand(errorClass: unknown): string | undefined {
  if (typeof errorClass !== 'function' || !Object.hasOwn(errorClass, CLASS_BRAND)) return undefined;
  const name: unknown = (errorClass as { [CLASS_BRAND]?: unknown })[CLASS_BRAND];
  return typeof name === 'string' ? name : undefined;
}

function brandsOf(value: unknown): readonly unknown[] | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const names = (value as Record<symbol, unknown>)[BRAND];
  // `Array.isArray` is true for an array of another realm too.
  return Array.isArray(names) ? names : undefined;
}

/**
 * `static [Symbol.hasInstance]` of every SDK error class, `this` being the class right of
 * `instanceof`. A function rather than a static method: lint (`noThisInStatic`) would have `this`
 * in a static method read as `ParleyError`, which for a subclass is not the class asked about.
 *
 * @internal
 */
function hasBrandOf(this: abstract new (...args: never[]) => unknown, value: unknown): boolean {
  const name = ownBrand(this);
  if (name === undefined) return Function.prototype[Symbol.hasInstance].call(this, value);
  return brandsOf(value)?.includes(name) ?? false;
}

/**
 * Base class of every error the SDK throws. `instanceof` reads a brand rather than the prototype
 * chain, so `error instanceof NotFoundError` holds for an error thrown by another copy of the SDK
 * (two versions in one app) or in another realm (a `node:vm` context, an iframe).
 */
export class ParleyError extends Error {
  /** @internal */
  static readonly [CLASS_BRAND]: string = 'ParleyError';

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
      const name = ownBrand(c);
      if (name !== undefined) names.push(name);
    }
    Object.defineProperty(this, BRAND, { value: Object.freeze(names) });
  }
}
