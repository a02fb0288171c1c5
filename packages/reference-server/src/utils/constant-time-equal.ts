/**
 * Whether two byte strings are equal, in a time that depends only on the length of `presented`
 * (which its sender knows), never on where the first difference is. Hashes nothing: hono's own
 * `timingSafeEqual` hashes both sides with SHA-256 on every call.
 */
export function constantTimeEqual(presented: Uint8Array, expected: Uint8Array): boolean {
  let diff = presented.length ^ expected.length;
  for (let i = 0; i < presented.length; i++) diff |= (presented[i] as number) ^ (expected[i] ?? 0);
  return diff === 0;
}
