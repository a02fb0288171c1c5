import type { ContentBlock, Message } from '@parley/protocol';
import type { EmitEvent } from './assistant-message-builder.js';

/**
 * Emits a whole server-stored message (user, system, tool results) as stream events:
 * messageStart (with index), each block, messageStop. Text blocks have no contentBlockStart;
 * tool_result blocks have one, one delta and a stop.
 */
export function emitMessage(message: Message, emit: EmitEvent | undefined): void {
  if (emit === undefined) return;
  emit({ messageStart: { role: message.role, index: message.index } });
  message.content.forEach((block, position) => {
    emitBlock(block, position, emit);
  });
  emit({ messageStop: message.role === 'assistant' ? { stopReason: 'end_turn' } : {} });
}

function emitBlock(block: ContentBlock, contentBlockIndex: number, emit: EmitEvent): void {
  if (block.type === 'text') {
    emit({ contentBlockDelta: { contentBlockIndex, delta: { text: block.text } } });
  } else if (block.type === 'tool_result') {
    emit({
      contentBlockStart: {
        contentBlockIndex,
        start: { toolResult: { toolUseId: block.tool_use_id, status: block.is_error ? 'error' : 'success' } },
      },
    });
    emit({
      contentBlockDelta: {
        contentBlockIndex,
        delta: {
          toolResult: block.content.map((part) =>
            part.type === 'json' ? { json: part.json } : { text: part.text },
          ),
        },
      },
    });
  } else {
    emit({
      contentBlockStart: { contentBlockIndex, start: { toolUse: { toolUseId: block.id, name: block.name } } },
    });
    emit({
      contentBlockDelta: { contentBlockIndex, delta: { toolUse: { input: JSON.stringify(block.input) } } },
    });
  }
  emit({ contentBlockStop: { contentBlockIndex } });
}
