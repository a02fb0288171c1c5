/**
 * The one error of `@parley/testcontainers`: a control call or request the started container could
 * not answer (it stopped, its port went away, it did not answer in time) or answered with an error
 * status. `status` is the HTTP status when there was an answer, undefined when there was none.
 */
export class ParleyContainerError extends Error {
  override readonly name = 'ParleyContainerError';
  readonly status: number | undefined;

  constructor(message: string, options: { status?: number; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.status = options.status;
  }
}
