// What `client.messages` loads on the first call with the `recover` option (see
// load-recovery.ts): the recovery of a buffered and of a streamed reply. One module for both, so a
// bundler makes them one chunk, which an app that never recovers never downloads.
export { sendWithRecovery } from './recovering-send.js';
export { streamRecovery } from './stream-recovery.js';
