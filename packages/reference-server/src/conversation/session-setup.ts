import type { Customizations, ToolDefinition } from '@parley/protocol';
import { HttpError } from '../http-error.js';
import type { ModelTool } from '../model/model.js';
import { type AgentDefinition, DEFAULT_AGENT_ID } from './agents.js';
import type { ExtensionHost } from './extension-host.js';
import type { ServerTool } from './server-tool.js';
import { type Session, sessionInfo } from './session-store.js';

/** The catalogues a session is resolved against. */
export interface SessionSetup {
  agents: Readonly<Record<string, AgentDefinition>>;
  models: readonly string[];
  providers: readonly string[];
  /** The agent Minimal and body-less sessions resolve to. */
  defaultAgentId: string;
  systemPrompt(session: Session): string | undefined;
  parameters(session: Session): { maxTokens?: number; temperature?: number };
}

export function createSessionSetup(
  agents: Readonly<Record<string, AgentDefinition>>,
  models: readonly string[],
  providers: readonly string[],
  defaultAgentId: string = DEFAULT_AGENT_ID,
): SessionSetup {
  const agentOf = (session: Session) => (session.agentId === undefined ? undefined : agents[session.agentId]);
  return {
    agents,
    models,
    providers,
    defaultAgentId,
    systemPrompt: (session) => agentOf(session)?.systemPrompt,
    parameters: (session) => ({ ...agentOf(session)?.parameters }),
  };
}

/**
 * Checks the catalogue names of validated customizations and returns the agent and model the
 * session resolves to (Minimal sessions resolve to the default agent).
 */
export function resolveSession(
  setup: SessionSetup,
  customizations: Customizations,
): { agentId: string | undefined; modelId: string | undefined } {
  const { agentId, model } = customizations;
  if (agentId !== undefined && !Object.hasOwn(setup.agents, agentId)) {
    throw new HttpError(
      'unknown_agent',
      `Unknown agentId "${agentId}"; known: ${Object.keys(setup.agents).join(', ')}`,
      {
        details: { agentId, known: Object.keys(setup.agents) },
      },
    );
  }
  if (model !== undefined && !setup.models.includes(model)) {
    throw new HttpError('unknown_model', `Unknown model "${model}"; known: ${setup.models.join(', ')}`, {
      details: { model, known: [...setup.models] },
    });
  }
  for (const provider of customizations.extensions?.mcpProviders ?? []) {
    if (!setup.providers.includes(provider)) {
      throw new HttpError(
        'unknown_provider',
        `Unknown provider "${provider}"; registered: ${setup.providers.join(', ')}`,
        { details: { provider, known: [...setup.providers] } },
      );
    }
  }
  if (model !== undefined) return { agentId: undefined, modelId: model };
  return { agentId: agentId ?? setup.defaultAgentId, modelId: undefined };
}

/** The tools of one model call: client tools (agent + extensions) and the host's server tools. */
export interface ResolvedTools {
  list: ModelTool[];
  client: Map<string, ToolDefinition>;
  server: Map<string, ServerTool>;
}

export async function resolveTools(
  setup: SessionSetup,
  host: ExtensionHost | undefined,
  session: Session,
): Promise<ResolvedTools> {
  const agent = session.agentId === undefined ? undefined : setup.agents[session.agentId];
  const client = new Map<string, ToolDefinition>(
    Object.entries({ ...agent?.tools, ...session.customizations.extensions?.tools }),
  );
  const server = new Map<string, ServerTool>();
  for (const tool of (await host?.serverTools?.(sessionInfo(session))) ?? []) {
    if (!client.has(tool.name) && !server.has(tool.name)) server.set(tool.name, tool);
  }
  const list: ModelTool[] = [
    ...[...client.values()].map((t) => ({
      name: t.name,
      description: t.description,
      inputSchema: t.requestArgs,
      kind: 'client' as const,
    })),
    ...[...server.values()].map((t) => ({
      name: t.name,
      description: t.description,
      inputSchema: t.inputSchema,
      kind: 'server' as const,
    })),
  ];
  return { list, client, server };
}
