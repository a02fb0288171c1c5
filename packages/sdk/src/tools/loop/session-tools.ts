import { MAX_REMEMBERED_SESSIONS } from '../../defaults.js';
import type { Customizations, ToolDefinition } from '../../wire/index.js';
import { type AnyTool, toolsToExtensions } from '../define/define-tool.js';

/** The client tools a session was created with, as `client.sessions.create` recorded them. */
export interface DeclaredTools {
  /** Every client tool name the session declares (defined tools and raw definitions). */
  names: string[];
  /** The defined tools passed as `tools`: what `runToolLoop` runs when it is given none. */
  tools: AnyTool[];
  /**
   * True when `names` are all the client tools the model can call: the session was created with
   * `tools` (declare every client tool there) or names a `model` (no agent adds tools). An agent may
   * bring client tools of its own, so a session created with only `customizations` and an agent is
   * not checked.
   */
  exhaustive: boolean;
}

/**
 * `customizations` with `tools` added under `extensions.tools`. A name declared in both places
 * throws: one declaration per tool.
 */
export function withTools(
  customizations: Customizations | undefined,
  tools: readonly AnyTool[],
): Customizations {
  const defined = toolsToExtensions(tools);
  const raw: Record<string, ToolDefinition> = customizations?.extensions?.tools ?? {};
  for (const name of Object.keys(defined)) {
    if (Object.hasOwn(raw, name)) {
      throw new TypeError(
        `sessions.create: tool "${name}" is declared twice, in tools and in customizations.extensions.tools`,
      );
    }
  }
  return {
    ...customizations,
    extensions: { ...customizations?.extensions, tools: { ...raw, ...defined } },
  } as Customizations;
}

/**
 * What a client remembers of the sessions it created: their declared client tools, so that
 * `runToolLoop` can run them without a second list and refuse a tool the model cannot call.
 * Bounded (the oldest session is forgotten first); a deleted session is forgotten at once.
 */
export class SessionTools {
  readonly #sessions = new Map<string, DeclaredTools>();

  remember(sessionId: string, customizations: Customizations | undefined, tools: readonly AnyTool[]): void {
    const names = Object.keys(customizations?.extensions?.tools ?? {});
    const exhaustive = tools.length > 0 || customizations?.model !== undefined;
    this.#sessions.set(sessionId, { names, tools: [...tools], exhaustive });
    if (this.#sessions.size > MAX_REMEMBERED_SESSIONS) {
      const oldest = this.#sessions.keys().next().value;
      if (oldest !== undefined) this.#sessions.delete(oldest);
    }
  }

  get(sessionId: string): DeclaredTools | undefined {
    return this.#sessions.get(sessionId);
  }

  forget(sessionId: string): void {
    this.#sessions.delete(sessionId);
  }
}
