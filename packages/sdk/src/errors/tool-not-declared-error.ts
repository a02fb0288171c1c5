import { CLASS_BRAND, ParleyError } from './parley-error.js';

/**
 * `runToolLoop` was given a tool the session was not created with: the model would never call it.
 * Thrown before anything is sent, when the client created the session (`client.sessions.create`)
 * and so knows the tools it declared.
 */
export class ToolNotDeclaredError extends ParleyError {
  /** @internal */
  static override readonly [CLASS_BRAND]: string = 'ToolNotDeclaredError';
  override readonly name = 'ToolNotDeclaredError' as const;
  readonly sessionId: string;
  /** The loop's tools the session does not declare. */
  readonly toolNames: string[];
  /** The client tools the session declares. */
  readonly declared: string[];
  constructor(init: { sessionId: string; toolNames: string[]; declared: string[] }) {
    const list = init.declared.length > 0 ? init.declared.join(', ') : '(none)';
    super(
      `Session ${init.sessionId} was not created with the tool${init.toolNames.length > 1 ? 's' : ''} ` +
        `${init.toolNames.map((n) => `"${n}"`).join(', ')}, so the model cannot call ${init.toolNames.length > 1 ? 'them' : 'it'} ` +
        `(declared: ${list}). Declare tools when creating the session: client.sessions.create({ tools: [...] })`,
    );
    this.sessionId = init.sessionId;
    this.toolNames = init.toolNames;
    this.declared = init.declared;
  }
}
