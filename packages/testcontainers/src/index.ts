export {
  type ChaosSettings,
  type PaceSettings,
  ParleyContainer,
  type ReplaySettings,
} from './parley-container.js';
export { ParleyContainerError } from './parley-container-error.js';
export { PARLEY_PORT } from './parley-port.js';
export type {
  JournalEntryJson,
  JournalFilter,
  ParleyTestHandle,
  QueuedFaultJson,
  ScriptJson,
} from './parley-test-handle.js';
export { StartedParleyContainer } from './started-parley-container.js';
