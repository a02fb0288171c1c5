/**
 * The one error of `@parley/testcontainers`: a request the started container could not answer (it
 * stopped, its port went away, it did not answer in time), a body it cut off, or a full `reset()` it
 * answered with an error status. `status` is the HTTP status when there was an answer, undefined
 * when there was none. (A handle call the server answers with an error status rejects as on any
 * shared server: an Error naming the route, the status and the server's JSON error.)
 */
export class ParleyContainerError extends Error {
  override readonly name = 'ParleyContainerError';
  readonly status: number | undefined;

  constructor(message: string, options: { status?: number; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.status = options.status;
  }
}
