import { Heartbeat } from './heartbeat.js';
import type { HeartbeatOptions } from './heartbeat-options.js';
import type { ToolTransport } from './tool-transport.js';

/** Creates a {@link Heartbeat} and starts it. */
export function startHeartbeat(
  transport: Pick<ToolTransport, 'heartbeat'>,
  options: HeartbeatOptions,
): Heartbeat {
  return new Heartbeat(transport, options).start();
}
