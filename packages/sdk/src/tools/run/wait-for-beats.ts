/**
 * Waits until no beat is in flight, but not past `until` (a `Date.now()` time: the lease's end, after
 * which no beat helps). A beat still out then is left to settle on its own, not cancelled: a cancelled
 * request may have reached the server all the same, and cancelling it would close its keep-alive
 * connection. `inFlight` is read again each time its beats settle.
 */
export async function waitForBeats(
  inFlight: ReadonlyMap<unknown, Promise<void>>,
  until: number,
): Promise<void> {
  let cutOff: ReturnType<typeof setTimeout> | undefined;
  const ended = new Promise<'ended'>((resolve) => {
    cutOff = setTimeout(() => resolve('ended'), Math.max(0, until - Date.now()));
  });
  try {
    while (inFlight.size > 0) {
      if ((await Promise.race([Promise.all(inFlight.values()), ended])) === 'ended') return;
    }
  } finally {
    clearTimeout(cutOff);
  }
}
