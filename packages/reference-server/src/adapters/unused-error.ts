/** The error of a test or file that left things it never used: one line each. */
export function unusedError(caller: string, lines: readonly string[]): Error {
  return new Error(
    `${caller}: ${lines.length} thing${lines.length === 1 ? ' was' : 's were'} never used ` +
      `(pass allowUnused: true to let this pass):\n  ${lines.join('\n  ')}`,
  );
}
