// Checked by `tsc -p packages/sdk` (the package's `typecheck`): an `expectTypeOf` that does not hold,
// or an `@ts-expect-error` line that compiles, fails it.
import type {
  MessageStream,
  MessageStreamEvent,
  RecoveryAction,
  RecoveryAttempt,
  StreamEventOf,
} from '@parley/sdk';
import { expectTypeOf } from 'vitest';

declare const stream: MessageStream;
declare const event: MessageStreamEvent;

export async function textDeltaIsAStringAfterTheNaturalChecks() {
  // The natural check: after `type` and an `in` check, a text delta's text is a string.
  for await (const item of stream) {
    expectTypeOf(item).toEqualTypeOf<MessageStreamEvent>();
    if (item.type === 'contentBlockDelta' && 'text' in item.delta) {
      expectTypeOf(item.delta.text).toEqualTypeOf<string>();
      const text: string = item.delta.text;
      void text;
    }
  }
}

export function deltasNarrowWithIn() {
  if (event.type === 'contentBlockDelta') {
    expectTypeOf(event.contentBlockIndex).toEqualTypeOf<number>();
    if ('toolUse' in event.delta) expectTypeOf(event.delta.toolUse.input).toEqualTypeOf<string>();
    if ('toolResult' in event.delta) {
      for (const part of event.delta.toolResult) {
        if ('text' in part) expectTypeOf(part.text).toEqualTypeOf<string>();
      }
    }
    // A delta kind a newer server adds is still readable after an `in` check.
    if ('reasoning' in event.delta) expectTypeOf(event.delta.reasoning).toEqualTypeOf<unknown>();
    // @ts-expect-error the delta may be a tool input or an unknown kind: check with `in` first
    void event.delta.text;
  }
}

export function startsAndPayloadsNarrowOnType() {
  if (event.type === 'contentBlockStart' && 'toolUse' in event.start) {
    expectTypeOf(event.start.toolUse.name).toEqualTypeOf<string>();
    expectTypeOf(event.start.toolUse.toolUseId).toEqualTypeOf<string>();
  }
  if (event.type === 'messageStart')
    expectTypeOf(event.role).toEqualTypeOf<'user' | 'assistant' | 'system'>();
  if (event.type === 'metadata') expectTypeOf(event.usage.totalTokens).toEqualTypeOf<number>();
  if (event.type === 'replyStop')
    expectTypeOf(event.pendingTools[0]?.requestId).toEqualTypeOf<string | undefined>();
  if (event.type === 'modelStreamErrorException') expectTypeOf(event.message).toEqualTypeOf<string>();
}

export function unknownKindsDoNotSwallowKnownOnes() {
  // The open member for kinds this SDK does not know does not swallow the known ones.
  if (event.type === 'unknown') {
    expectTypeOf(event.kind).toEqualTypeOf<string>();
    expectTypeOf(event.payload).toEqualTypeOf<unknown>();
  } else {
    expectTypeOf(event.type).toEqualTypeOf<Exclude<MessageStreamEvent['type'], 'unknown'>>();
  }
  expectTypeOf<StreamEventOf<'messageStop'>['stopReason']>().toEqualTypeOf<
    import('@parley/sdk').StopReason | undefined
  >();
  // @ts-expect-error not an event kind
  const wrong: MessageStreamEvent['type'] = 'contentBlockDeltas';
  void wrong;
}

export function listenersAreTyped() {
  // Listener arguments are typed too.
  stream.on('event', (item) => expectTypeOf(item).toEqualTypeOf<MessageStreamEvent>());
  stream.on('text', (delta, snapshot) => {
    expectTypeOf(delta).toEqualTypeOf<string>();
    expectTypeOf(snapshot).toEqualTypeOf<string>();
  });
}

export function recoveredIsTheSdksOwnEventAndNarrowsOnType() {
  if (event.type === 'recovered') {
    expectTypeOf(event.action).toEqualTypeOf<RecoveryAction>();
    expectTypeOf(event.error).toEqualTypeOf<Error>();
    expectTypeOf(event).toMatchTypeOf<RecoveryAttempt>();
  }
}
