import { ConflictError } from '../../errors/index.js';
import type { PendingTool } from '../../wire/index.js';
import { reportWithRetry } from './report.js';
import type { ToolRunResult } from './tool-run-result.js';
import type { ToolClient, ToolTransport } from './tool-transport.js';

/**
 * Reports a call for a tool this worker does not have as ERROR, naming the tools it has, so the
 * model can recover. Used by `runToolLoop`; the report is retried like any other.
 */
export async function reportUnknownTool(
  client: ToolClient | ToolTransport,
  options: {
    sessionId: string;
    pending: Pick<PendingTool, 'requestId' | 'name'>;
    available: readonly string[];
    signal?: AbortSignal | undefined;
  },
): Promise<ToolRunResult> {
  const transport = 'tools' in client ? client.tools : client;
  const { sessionId, pending } = options;
  const list = options.available.length > 0 ? options.available.join(', ') : '(none)';
  const message = `Unknown tool "${pending.name}". Available tools: ${list}`;
  const base = { requestId: pending.requestId, name: pending.name };
  try {
    await reportWithRetry((o) => transport.fail(sessionId, pending.requestId, message, o), {
      signal: options.signal,
    });
  } catch (error) {
    if (error instanceof ConflictError) {
      return {
        ...base,
        status: 'ALREADY_SETTLED',
        error: 'The call was already settled (409)',
        cause: error,
      };
    }
    throw error;
  }
  return { ...base, status: 'ERROR', error: message };
}
