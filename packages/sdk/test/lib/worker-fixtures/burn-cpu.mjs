/**
 * Computes without ever awaiting until `shouldStop()` says so: the thread it runs on does nothing
 * else meanwhile (no timers, no messages). Returns how many rounds it ran.
 */
export function burnCpu(shouldStop) {
  let rounds = 0;
  let x = 0;
  while (!shouldStop()) {
    for (let i = 0; i < 10_000; i++) x = (x * 31 + i) % 1_000_003;
    rounds++;
  }
  return x >= 0 ? rounds : -1;
}
