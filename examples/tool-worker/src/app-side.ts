import type { Parley } from '@parley/sdk';
import type { Job } from './job.js';
import type { RestartableServer } from './restartable-server.js';

/** A question's pending tool call as a job, and the index of the user message (to rewind to). */
export interface AskedJob {
  job: Job;
  userIndex: number;
}

/** Starts a session, sends `question` and turns the reply's pending tool call into a job. */
export async function askForTool(client: Parley, question: string): Promise<AskedJob> {
  const { sessionId } = await client.sessions.create();
  const reply = await client.messages.send(sessionId, { content: question });
  const pending = reply.pendingTools[0];
  if (!pending) throw new Error(`"${question}" did not call a tool`);
  const userIndex = reply.messages.find((m) => m.role === 'user')?.index ?? 0;
  const job: Job = {
    sessionId,
    requestId: pending.requestId,
    name: pending.name,
    input: pending.input,
    heartbeatTimeoutMs: reply.heartbeatTimeoutMs,
    deadlineAt: pending.deadlineAt,
  };
  return { job, userIndex };
}

/** What the server holds for one call once its job has ended. */
export interface CallFacts {
  /** The worker's terminal reports for the call, with the server's status (and what the worker got instead). */
  workerReports: { status: number; deliveredStatus?: number }[];
  /** `tool_result` blocks for the call in the conversation: 1 when it was answered, else 0. */
  toolResults: number;
  /** The server's state of the call. */
  finalState: string;
}

/** Reads {@link CallFacts} from the server's request journal, the conversation and `tools.get`. */
export async function callFacts(server: RestartableServer, client: Parley, job: Job): Promise<CallFacts> {
  const messages = await client.messages.export(job.sessionId);
  const toolResults = messages
    .flatMap((m) => m.content)
    .filter((b) => b.type === 'tool_result' && b.tool_use_id === job.requestId).length;
  const reportPath = `/v1/tools/response/${job.sessionId}/${job.requestId}`;
  const workerReports = server.requests
    .filter((r) => r.client === 'tool-worker' && r.method === 'POST' && r.path === reportPath)
    .map(({ status, deliveredStatus }) =>
      deliveredStatus === undefined ? { status } : { status, deliveredStatus },
    );
  const { state } = await client.tools.get(job.sessionId, job.requestId);
  return { workerReports, toolResults, finalState: state };
}

/** Resumes the conversation after its tool call was answered; the assistant's text. */
export async function resume(client: Parley, sessionId: string): Promise<string> {
  const answer = await client.messages.send(sessionId, {});
  return (
    answer.messages
      .at(-1)
      ?.content.map((b) => (b.type === 'text' ? b.text : ''))
      .join('') ?? ''
  );
}
