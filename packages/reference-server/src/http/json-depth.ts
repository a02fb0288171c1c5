/** Deepest nesting of objects and arrays a request body may have (the body itself is level 1). */
export const MAX_JSON_DEPTH = 64;

/**
 * The nesting depth of valid JSON `text` (objects and arrays), counted without recursion; stops
 * counting once it passes `stopAbove`.
 */
export function jsonDepth(text: string, stopAbove = Number.POSITIVE_INFINITY): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 0x5c)
        i++; // a backslash escapes the next character
      else if (ch === 0x22) inString = false;
    } else if (ch === 0x22) inString = true;
    else if (ch === 0x7b || ch === 0x5b) {
      depth++;
      if (depth > deepest) deepest = depth;
      if (deepest > stopAbove) return deepest;
    } else if (ch === 0x7d || ch === 0x5d) depth--;
  }
  return deepest;
}
