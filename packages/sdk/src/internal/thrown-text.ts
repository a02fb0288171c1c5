/**
 * The text of whatever was thrown, for a message: an `Error`'s message (its name when the message
 * is empty), a string as it is, anything else as `String()` writes it (`undefined`, `42`).
 */
export function thrownText(thrown: unknown): string {
  if (thrown instanceof Error) return thrown.message.trim() !== '' ? thrown.message : thrown.name;
  if (typeof thrown === 'string') return thrown;
  try {
    return String(thrown);
  } catch {
    // An object whose toString throws, or a null-prototype object.
    return Object.prototype.toString.call(thrown);
  }
}
