/**
 * The server stopped as asked, and the run still failed (e.g. `--fail-on-violation` found
 * violations): `stopOnSignals` prints the message as it is and exits with {@link exitCode}.
 */
export class StopFailure extends Error {
  override readonly name = 'StopFailure';

  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}
