/** The version of `@parley/reference-server` (its package.json's; a test keeps the two equal). */
export const PARLEY_VERSION = '0.1.0';
