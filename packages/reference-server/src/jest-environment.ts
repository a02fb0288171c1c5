import type { JestEnvironment } from '@jest/environment';
import { TestEnvironment as NodeEnvironment } from 'jest-environment-node';
// No extension: Jest loads an environment with Node's require outside its module map, where the
// sources' `.js` spelling of a `.ts` file does not resolve (the built package bundles it anyway).
import { noteJestEvent } from './adapters/jest-outcomes';

/**
 * Jest's `node` environment that tells `useReferenceServer` which tests failed or were skipped, so
 * that a recording run never writes what a failed test recorded: set `testEnvironment:
 * '@parley/reference-server/jest-environment'` (needs `jest-environment-node`, which Jest installs).
 */
export default class ParleyNodeEnvironment extends NodeEnvironment {
  handleTestEvent(event: JestEvent): void {
    noteJestEvent(this.global, event);
  }
}

/** A jest-circus event, as environments are told of them. */
export type JestEvent = Parameters<NonNullable<JestEnvironment['handleTestEvent']>>[0];

export { ParleyNodeEnvironment as TestEnvironment };
