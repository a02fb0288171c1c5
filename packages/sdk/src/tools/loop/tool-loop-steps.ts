// The tool loop's body: send, run the pending tools, resume. `runToolLoop` loads it with its first
// run.
import { CallbackFailures, callbackError } from '../../internal/callback-failures.js';
import { linkedSignal } from '../../internal/linked-signal.js';
import { raceSignal } from '../../internal/race-signal.js';
import type { RecoverOptions, RecoveryAttempt } from '../../recovery/recover-options.js';
import type { Message, MessageReply, PendingTool, SendMessageRequest } from '../../wire/index.js';
import type { AnyTool } from '../define/define-tool.js';
import { Heartbeat } from '../run/heartbeat.js';
import { reportUnknownTool } from '../run/report-unknown-tool.js';
import { runTool } from '../run/run-tool.js';
import { LEASE_TOKEN_HEADER, newLeaseToken } from '../run/tool-lease.js';
import type { ToolRunResult } from '../run/tool-run-result.js';
import { checkLoopControls } from './check-loop-controls.js';
import { checkStop } from './check-stop.js';
import { endedElsewhere } from './ended-elsewhere.js';
import { mapInTurns } from './exclusive-calls.js';
import { lastAssistantText } from './last-assistant-text.js';
import { type HeldCall, reattach } from './reattach.js';
import { type StepRecovery, stepRecovery } from './step-recovery.js';
import { isTakenTurn, liveMessages } from './taken-turn.js';
import type { RunToolLoopOptions, ToolLoopClient } from './tool-loop-options.js';
import type { ToolLoopReattach, ToolLoopResult, ToolLoopStep } from './tool-loop-run.js';
import type { ToolLoopTrace } from './tool-loop-trace.js';
import { loopPrice, sumUsage, usageCost } from './usage-budget.js';

/** The loop's settings, checked by `runToolLoop` before the run starts. */
export interface ToolLoopConfig {
  maxSteps: number;
  concurrency: number;
  tools: Map<string, AnyTool>;
  /** `reattach: true` (or its deprecated name `resume: true`). */
  reattach: boolean;
  /** The run's spans, when the client has a tracer. */
  trace?: ToolLoopTrace | undefined;
  /** Where the callbacks' failures are kept (ended by the caller once the run settles). */
  failures?: CallbackFailures | undefined;
}

/** The caller's callbacks a step calls while its tool calls run: guarded, so that the calls settle. */
interface StepCallbacks {
  onText: ((delta: string, snapshot: string) => void) | undefined;
  onToolStart: RunToolLoopOptions['onToolStart'];
  onHeartbeat: RunToolLoopOptions['onHeartbeat'];
  onHeartbeatError: RunToolLoopOptions['onHeartbeatError'];
  onAttempt: ((attempt: RecoveryAttempt) => void) | undefined;
}

/** What the steps of one run work with. */
interface LoopRun {
  client: ToolLoopClient;
  options: RunToolLoopOptions;
  config: ToolLoopConfig;
  callbacks: StepCallbacks;
  signal: AbortSignal;
  /**
   * The run's lease token (the server's lease extension): its sends lease the calls of their replies
   * to it, its beats and reports carry it. A server without the extension ignores it.
   */
  leaseToken: string;
}

/** Runs the loop to its end: `emit` each step as it completes. */
export async function runToolLoopSteps(
  client: ToolLoopClient,
  options: RunToolLoopOptions,
  config: ToolLoopConfig,
  emit: (step: ToolLoopStep) => void,
  signal: AbortSignal,
): Promise<ToolLoopResult> {
  checkLoopControls(options, config.tools);
  const price =
    options.prices === undefined ? undefined : loopPrice(options.prices, options.priceModel ?? options.model);
  const { sessionId } = options;
  // A callback that throws while a step runs is kept; the run rejects with it once the step's calls
  // are settled, so that no call is left open on the server.
  const failures = config.failures ?? new CallbackFailures('runToolLoop');
  const callbacks: StepCallbacks = {
    onText: failures.guard('onText', options.onText),
    onToolStart: failures.guard('onToolStart', options.onToolStart),
    onHeartbeat: failures.guard('onHeartbeat', options.onHeartbeat),
    onHeartbeatError: failures.guard('onHeartbeatError', options.onHeartbeatError),
    onAttempt: failures.guard('recover.onAttempt', recoverOptions(options.recover)?.onAttempt),
  };
  const run: LoopRun = { client, options, config, callbacks, signal, leaseToken: newLeaseToken() };
  const messages = new Map<number, Message>();
  const steps: ToolLoopStep[] = [];
  let body: SendMessageRequest = options.content === undefined ? {} : { content: options.content };
  let reattached: ToolLoopReattach | undefined;
  if (config.reattach) {
    const found = await reattach(client, options, run.leaseToken, signal, (calls, held) =>
      runCalls(run, calls, options.heartbeatTimeoutMs, held),
    );
    failures.throwIfFailed();
    if (!found.open || found.elsewhere) {
      const live = found.open ? await liveMessages(client, sessionId, signal) : found.messages;
      const status = found.open ? 'held_elsewhere' : 'done';
      return endedElsewhere(status, sessionId, live, steps, price, found.open ? found.reattached : undefined);
    }
    reattached = found.reattached;
  }
  for (let step = 1; ; step++) {
    signal.throwIfAborted();
    config.trace?.startStep(step);
    const recovery = stepRecovery(options.recover, messages, callbacks.onAttempt);
    let reply: MessageReply;
    // The send carries the run's token: under the lease extension it picks the reply's calls up.
    const sentAt = Date.now();
    try {
      reply = await inStep(config, () => send(run, body, recovery));
    } catch (error) {
      // The re-attached turn was resumed by another process first: it is that process's turn.
      if (step === 1 && reattached && isTakenTurn(error)) {
        const live = await liveMessages(client, sessionId, signal);
        return endedElsewhere('held_elsewhere', sessionId, live, steps, price, reattached);
      }
      throw error;
    }
    for (const message of reply.messages) messages.set(message.index, message);
    // A reply the recovery took from the session (after a failed send) is not trusted with it.
    const heldSince = recovery?.attempts.length ? undefined : sentAt;
    const toolResults = await runCalls(
      run,
      reply.pendingTools,
      reply.heartbeatTimeoutMs,
      undefined,
      heldSince,
    );
    failures.throwIfFailed();
    const done: ToolLoopStep = { step, reply, toolResults, ...(recovery && { recovery: recovery.attempts }) };
    if (toolResults.some((r) => r.approval)) done.approvals = toolResults.flatMap((r) => r.approval ?? []);
    if (toolResults.some((r) => r.repair)) done.repairs = toolResults.flatMap((r) => r.repair ?? []);
    if (price) done.cost = usageCost(reply.usage, price);
    config.trace?.endStep(done);
    steps.push(done);
    emit(done);
    if (options.onStep) await callback('onStep', () => options.onStep?.(done), signal);
    const finished = reply.pendingTools.length === 0;
    const check = finished ? undefined : checkStop(done, steps, options.stopWhen, config.tools);
    const stopped = check instanceof Promise ? await callback('stopWhen', () => check, signal) : check;
    if (finished || stopped || step >= config.maxSteps) {
      const ordered = [...messages.values()].sort((a, b) => a.index - b.index);
      return {
        status: finished ? 'done' : stopped ? 'stopped' : 'max_steps',
        ...(stopped ? { stopped } : {}),
        sessionId,
        messages: ordered,
        finalText: lastAssistantText(ordered),
        steps,
        stopReason: reply.stopReason,
        usage: sumUsage(steps),
        ...(price && { cost: steps.reduce((total, s) => total + (s.cost ?? 0), 0) }),
        ...(reattached && { reattached }),
      };
    }
    body = {};
  }
}

/**
 * Awaits a callback of the caller's; what it throws rejects the run, named, as its `cause`. One
 * that never settles does not outlive an abort: the run ends with it.
 */
async function callback<T>(name: string, call: () => T | Promise<T>, signal: AbortSignal): Promise<T> {
  try {
    return await raceSignal(Promise.resolve().then(call), signal);
  } catch (thrown) {
    if (signal.aborted && thrown === signal.reason) throw thrown;
    throw callbackError('runToolLoop', name, thrown);
  }
}

function recoverOptions(recover: RunToolLoopOptions['recover']): RecoverOptions | undefined {
  return recover === true ? undefined : recover;
}

/** Runs `fn` inside the current step's span (the run's before the first step), when traced. */
function inStep<T>(config: ToolLoopConfig, fn: () => T): T {
  return config.trace ? config.trace.within(fn) : fn();
}

async function send(
  { client, options, callbacks, signal, leaseToken }: LoopRun,
  body: SendMessageRequest,
  recovery: StepRecovery | undefined,
): Promise<MessageReply> {
  const headers = { [LEASE_TOKEN_HEADER]: leaseToken };
  const sendOptions = recovery ? { signal, headers, recover: recovery.recover } : { signal, headers };
  if (!options.stream) return client.messages.send(options.sessionId, body, sendOptions);
  const stream = client.messages.stream(options.sessionId, body, sendOptions);
  if (callbacks.onText) stream.on('text', callbacks.onText);
  return stream.finalReply();
}

async function runCalls(
  { client, options, callbacks, config, signal, leaseToken }: LoopRun,
  pendingTools: readonly PendingTool[],
  heartbeatTimeoutMs: number | undefined,
  claimed?: ReadonlyMap<string, HeldCall>,
  /**
   * When the send whose reply made the calls started (it carried the token). A call the reply shows
   * `PROCESSING` was picked up for this run by that send (the lease extension): it is held since
   * then, and its first beat is due an interval later. A call that reads `PENDING` (a server without
   * the extension) gets its first beat at once.
   */
  sentAt?: number,
): Promise<ToolRunResult[]> {
  if (pendingTools.length === 0) return [];
  // One failing tool (its report failed for good) cancels its siblings before the loop rejects.
  const step = new AbortController();
  const linked = linkedSignal(signal, step.signal);
  const stepSignal = linked.signal;
  const available = [...config.tools.keys()];
  // The calls' lifetimes count from here (an approval wait ends before the deadline).
  const receivedAt = Date.now();
  // The loop holds every call it accepted from now: a call that waits its turn (over `concurrency`,
  // or behind an `exclusive` tool) is beaten while it waits, so no other process can claim it.
  const held = new Map(claimed);
  const heldSince = (pending: PendingTool) => (pending.state === 'PROCESSING' ? sentAt : undefined);
  if (claimed === undefined && mayWait(pendingTools, config)) {
    const { onHeartbeat, onHeartbeatError } = callbacks;
    for (const pending of pendingTools) {
      if (!config.tools.has(pending.name)) continue;
      // Its beats while it waits are reported as a running call's are (its run takes them over).
      const heartbeat = new Heartbeat(client.tools, {
        sessionId: options.sessionId,
        requestId: pending.requestId,
        heartbeatTimeoutMs,
        signal: stepSignal,
        random: options.random,
        leaseToken,
        heldSince: heldSince(pending),
        onBeat: onHeartbeat && ((beats) => onHeartbeat(beats, { ...pending, state: 'PROCESSING' })),
        onBeatError: onHeartbeatError && ((error) => onHeartbeatError(error, pending)),
      }).start();
      held.set(pending.requestId, { heartbeat, receivedAt });
    }
  }
  const runOne = (pending: PendingTool) => {
    const tool = config.tools.get(pending.name);
    if (!tool)
      return reportUnknownTool(client, {
        sessionId: options.sessionId,
        pending,
        available,
        signal: stepSignal,
      });
    const { onHeartbeatError, onHeartbeat } = callbacks;
    // The call as the server reads it: as the reply had it until a beat succeeds, then PROCESSING.
    let call = pending;
    callbacks.onToolStart?.(pending);
    const holding = held.get(pending.requestId);
    return runTool(client, {
      sessionId: options.sessionId,
      pending,
      tool,
      heartbeatTimeoutMs,
      signal: stepSignal,
      random: options.random,
      maxBodyBytes: options.maxBodyBytes,
      onHeartbeatError: onHeartbeatError && ((error) => onHeartbeatError(error, call)),
      onHeartbeat: (beats) => {
        if (call.state !== 'PROCESSING') call = { ...pending, state: 'PROCESSING' };
        onHeartbeat?.(beats, call);
      },
      approve: options.approve,
      toolTimeoutMs: options.toolTimeoutMs,
      receivedAt: holding?.receivedAt ?? receivedAt,
      middleware: options.middleware,
      repairToolInput: options.repairToolInput,
      attempt: holding?.attempt,
      leaseToken,
      heartbeat: holding?.heartbeat,
      // Its reply's send carried the token: the call is this run's from its creation.
      leased: true,
      heldSince: heldSince(pending),
    });
  };
  try {
    return await mapInTurns(
      pendingTools,
      config.concurrency,
      (pending) => config.tools.get(pending.name)?.exclusive === true,
      // Each call starts inside the step's span: a call waits its turn, and may start after an await.
      (pending) => inStep(config, () => runOne(pending)),
      (error) => step.abort(error),
    );
  } finally {
    // A held call that never got its turn (a sibling failed for good): let its lease lapse.
    await Promise.all([...held.values()].map(({ heartbeat }) => heartbeat.stop()));
    linked.unlink();
  }
}

/** Whether a call of these may wait for its turn: more than `concurrency`, or an exclusive tool among several. */
function mayWait(pendingTools: readonly PendingTool[], config: ToolLoopConfig): boolean {
  if (pendingTools.length > config.concurrency) return true;
  return pendingTools.length > 1 && pendingTools.some((p) => config.tools.get(p.name)?.exclusive === true);
}
