export type { SharedServer, SharedTestScope, TestAttempt } from '@parley/reference-server/node';
export {
  type ChaosSettings,
  type PaceSettings,
  ParleyContainer,
  type ReplaySettings,
} from './parley-container.js';
export { ParleyContainerError } from './parley-container-error.js';
export { PARLEY_PORT } from './parley-port.js';
export type { ScriptJson } from './script-json.js';
export { StartedParleyContainer } from './started-parley-container.js';
