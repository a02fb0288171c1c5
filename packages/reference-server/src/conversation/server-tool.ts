import type { JsonObject, ToolResultContent } from '@parley/protocol';

/** The result of a server-handled tool call, as the model will see it in a tool_result block. */
export interface ServerToolResult {
  content: ToolResultContent[];
  isError: boolean;
}

/** What a server-handled tool knows about the call. */
export interface ServerToolContext {
  sessionId: string;
  /** Aborted when the reply is interrupted (client disconnect, session deleted). */
  signal: AbortSignal;
}

/**
 * A tool the server runs itself inside a reply (document retrieval, gateway provider tools), unlike
 * client tools, which stop the reply and are fulfilled by the caller. The model sees it next to the
 * client tools; its tool_use, its tool_result and the model's answer all land in one reply.
 */
export interface ServerTool {
  /** Name as the model sees it; must not collide with a client tool of the session. */
  name: string;
  description: string;
  /** JSON Schema of the input object. */
  inputSchema: Record<string, unknown>;
  call(input: JsonObject, context: ServerToolContext): Promise<ServerToolResult>;
}
