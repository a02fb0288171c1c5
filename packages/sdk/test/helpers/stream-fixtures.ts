/** Stream bodies shaped like the reference server's (docs/protocol.md). */

export const SESSION_ID = 'sess_1';

export const USER_MESSAGE = {
  role: 'user',
  index: 0,
  content: [{ type: 'text', text: 'Weather?' }],
  deletedAt: null,
  createdAt: 1,
};
export const ASSISTANT_MESSAGE = {
  role: 'assistant',
  index: 1,
  content: [
    { type: 'text', text: 'Let me check.' },
    { type: 'tool_use', id: 'tooluse_1', name: 'get_weather', input: { city: 'Paris' } },
  ],
  deletedAt: null,
  createdAt: 2,
};
export const PENDING = {
  requestId: 'tooluse_1',
  name: 'get_weather',
  input: { city: 'Paris' },
  state: 'PENDING',
  createdAt: 2,
  deadlineAt: 600_002,
};

export const REPLY_STOP = {
  messages: [USER_MESSAGE, ASSISTANT_MESSAGE],
  stopReason: 'tool_use',
  pendingTools: [PENDING],
  heartbeatTimeoutMs: 15_000,
  usage: { inputTokens: 4, outputTokens: 3, totalTokens: 7 },
};

/** The events of a tool_use reply, ending with replyStop. */
export function toolUseEvents(): unknown[] {
  return [
    { messageStart: { role: 'user', index: 0 } },
    { contentBlockDelta: { contentBlockIndex: 0, delta: { text: 'Weather?' } } },
    { contentBlockStop: { contentBlockIndex: 0 } },
    { messageStop: {} },
    { messageStart: { role: 'assistant', index: 1 } },
    { contentBlockDelta: { contentBlockIndex: 0, delta: { text: 'Let me ' } } },
    { contentBlockDelta: { contentBlockIndex: 0, delta: { text: 'check.' } } },
    { contentBlockStop: { contentBlockIndex: 0 } },
    {
      contentBlockStart: {
        contentBlockIndex: 1,
        start: { toolUse: { toolUseId: 'tooluse_1', name: 'get_weather' } },
      },
    },
    { contentBlockDelta: { contentBlockIndex: 1, delta: { toolUse: { input: '{"city":' } } } },
    { contentBlockDelta: { contentBlockIndex: 1, delta: { toolUse: { input: '"Paris"}' } } } },
    { contentBlockStop: { contentBlockIndex: 1 } },
    { messageStop: { stopReason: 'tool_use' } },
    { metadata: { usage: { inputTokens: 4, outputTokens: 3, totalTokens: 7 }, metrics: { latencyMs: 2 } } },
    { replyStop: REPLY_STOP },
  ];
}

/** The body text of a stream: `{"sessionId":...,"events":[...]}`, one event per line as the server writes it. */
export function streamBody(events: unknown[], options: { close?: boolean } = {}): string {
  const head = `{"sessionId":"${SESSION_ID}","events":[\n`;
  const list = events.map((e) => JSON.stringify(e)).join(',\n');
  return head + list + (options.close === false ? '' : '\n]}');
}
