/** Calls a user callback; a callback that throws must not stop the timer (or the tool it guards). */
export function notify<T>(callback: ((value: T) => void) | undefined, value: T): void {
  try {
    callback?.(value);
  } catch {
    // Ignored on purpose: logging hooks are best effort.
  }
}
