import type { ToolDefinition } from '@parley/protocol';

/** An agent bundle: what `customizations.agentId` selects. */
export interface AgentDefinition {
  /** The system prompt the model gets. */
  systemPrompt: string;
  /** Client tools every session of this agent has (merged with `extensions.tools`; those win). */
  tools?: Record<string, ToolDefinition>;
  /** Inference parameters handed to the model. */
  parameters?: { maxTokens?: number; temperature?: number };
}

/** The agent Minimal and body-less sessions resolve to. */
export const DEFAULT_AGENT_ID = 'default';

/** The built-in agent catalogue. */
export const DEFAULT_AGENTS: Readonly<Record<string, AgentDefinition>> = {
  default: {
    systemPrompt: 'You are a helpful assistant.',
    parameters: { maxTokens: 1024, temperature: 0.5 },
  },
  assistant: {
    systemPrompt: 'You are a concise assistant. Answer in as few words as the question allows.',
    parameters: { maxTokens: 2048, temperature: 0.2 },
  },
  weather: {
    systemPrompt: 'You answer questions about the weather. Use get_weather to look up a city.',
    tools: {
      get_weather: {
        name: 'get_weather',
        description: 'Current weather of a city.',
        requestArgs: {
          type: 'object',
          properties: { city: { type: 'string' } },
          required: ['city'],
        },
        responseShape: {
          type: 'object',
          properties: { temperatureC: { type: 'number' }, conditions: { type: 'string' } },
        },
      },
    },
    parameters: { maxTokens: 1024, temperature: 0 },
  },
};

/** The built-in foundation-model catalogue (the Full variant's `customizations.model`). */
export const DEFAULT_MODELS: readonly string[] = [
  'parley-stand-in-1',
  'anthropic.claude-sonnet-4-5',
  'amazon.nova-pro-v1',
];

/** The built-in gateway tool providers (`extensions.mcpProviders`). */
export const DEFAULT_PROVIDERS: readonly string[] = ['erp'];
