import type { z } from 'zod';
import { nearestName } from '../utils/nearest-name.js';

/**
 * The message of an `unrecognized_keys` issue, with what to do instead: the nearest known field of
 * the object at that path (`Unrecognized key: "agentID" (did you mean "agentId"?)`), and for an
 * OpenAI-style `messages` list where this service takes `content`, that it takes `content`. A
 * field that belongs one level down is named with its parent (`did you mean "customizations.agentId"?`).
 */
export function unrecognizedKeysMessage(
  schema: z.core.$ZodType,
  issue: { path: readonly PropertyKey[]; keys: readonly string[]; message: string },
): string {
  const known = [...new Set(objectKeysAt(schema, issue.path))];
  if (issue.keys.includes('messages') && known.includes('content')) {
    return (
      `${issue.message}: this service takes the new user turn as "content" (a string or content blocks), ` +
      'not a "messages" list; the session keeps the conversation'
    );
  }
  const hints = issue.keys.flatMap((key) => {
    const near = nearestName(key, known) ?? nestedName(schema, issue.path, known, key);
    return near === undefined ? [] : [{ key, near }];
  });
  if (hints.length === 0) return issue.message;
  if (issue.keys.length === 1) return `${issue.message} (did you mean "${hints[0]?.near}"?)`;
  return `${issue.message} (did you mean ${hints.map((h) => `"${h.near}" for "${h.key}"`).join(', ')}?)`;
}

/** `parent.key` when an object field `parent` at `path` has a field `key` (or one near it). */
function nestedName(
  schema: z.core.$ZodType,
  path: readonly PropertyKey[],
  known: readonly string[],
  key: string,
): string | undefined {
  for (const parent of known) {
    const inner = objectKeysAt(schema, [...path, parent]);
    const near = inner.includes(key) ? key : nearestName(key, inner);
    if (near !== undefined) return `${parent}.${near}`;
  }
  return undefined;
}

/**
 * The field names of every object `schema` may hold at `path` (through optional, nullable, default,
 * pipe, lazy, union and intersection schemas, array elements and record values).
 */
function objectKeysAt(schema: z.core.$ZodType, path: readonly PropertyKey[]): string[] {
  // The definition's fields by kind, as zod 4 names them; read loosely, one kind at a time.
  const def = schema._zod.def as unknown as Record<string, unknown> & { type: string };
  const inner = (field: string, rest = path) => objectKeysAt(def[field] as z.core.$ZodType, rest);
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'nonoptional':
    case 'readonly':
    case 'catch':
      return inner('innerType');
    case 'pipe':
      return inner('in');
    case 'lazy':
      return objectKeysAt((def.getter as () => z.core.$ZodType)(), path);
    case 'union':
      return (def.options as z.core.$ZodType[]).flatMap((option) => objectKeysAt(option, path));
    case 'intersection':
      return [...inner('left'), ...inner('right')];
    case 'object': {
      const shape = def.shape as Record<string, z.core.$ZodType>;
      if (path.length === 0) return Object.keys(shape);
      const child = Object.hasOwn(shape, path[0] as string) ? shape[path[0] as string] : undefined;
      return child === undefined ? [] : objectKeysAt(child, path.slice(1));
    }
    case 'array':
      return typeof path[0] === 'number' ? inner('element', path.slice(1)) : [];
    case 'record':
      return path.length === 0 ? [] : inner('valueType', path.slice(1));
    default:
      return [];
  }
}
