import { ReplyStopShape, RoleShape, UsageShape } from '../core/response-shapes.js';
import { number, object, optional, record, type Shape, string } from '../internal/shape.js';
import type { ExceptionEventKind, KnownStreamEventKind } from '../wire/index.js';

const exception = object({ message: string, code: optional(string) });

/**
 * The fields the SDK reads from each known event kind, checked by hand (no schema library on the
 * hot path). `satisfies` keeps this table in step with the protocol's list of kinds.
 */
export const EVENT_SHAPES = {
  messageStart: object({ role: RoleShape, index: number }),
  contentBlockStart: object({ contentBlockIndex: number, start: record }),
  contentBlockDelta: object({ contentBlockIndex: number, delta: record }),
  contentBlockStop: object({ contentBlockIndex: number }),
  messageStop: object({ stopReason: optional(string) }),
  metadata: object({ usage: UsageShape }),
  replyStop: ReplyStopShape,
  internalServerException: exception,
  modelStreamErrorException: exception,
  validationException: exception,
  throttlingException: exception,
  serviceUnavailableException: exception,
} satisfies Record<KnownStreamEventKind, Shape>;

const EXCEPTION_KINDS = [
  'internalServerException',
  'modelStreamErrorException',
  'validationException',
  'throttlingException',
  'serviceUnavailableException',
] as const satisfies readonly ExceptionEventKind[];
// Fails to compile when the protocol gains an exception kind this list lacks.
const allExceptionKinds: ExceptionEventKind extends (typeof EXCEPTION_KINDS)[number] ? true : never = true;
void allExceptionKinds;

/** The exception kinds (`modelStreamErrorException`, ...). */
export const EXCEPTION_EVENT_KINDS: ReadonlySet<string> = new Set(EXCEPTION_KINDS);

export function isKnownStreamEventKind(kind: string): kind is KnownStreamEventKind {
  return Object.hasOwn(EVENT_SHAPES, kind);
}
