import { APIUserAbortError } from '../../errors/index.js';
import { forwardAbort } from '../../internal/forward-abort.js';
import type { RecoveryAttempt } from '../../recovery/recover-options.js';
import { EventQueue } from '../../streaming/event-queue.js';
import type { Message, MessageReply, StopReason, ToolCall, Usage } from '../../wire/index.js';
import type { ToolInputRepair } from '../run/input-repair.js';
import type { ToolApproval } from '../run/tool-approval.js';
import type { ToolRunResult } from '../run/tool-run-result.js';

/** One model reply of a tool loop and the tool calls it asked for, all settled. */
export interface ToolLoopStep {
  /** 1 for the first reply. */
  step: number;
  reply: MessageReply;
  /** One result per pending tool of `reply`, in the order of `reply.pendingTools`. */
  toolResults: ToolRunResult[];
  /** With the loop's `recover` option: the attempts that recovered this step's reply (often none). */
  recovery?: RecoveryAttempt[];
  /** Who approved what: one record per call that needed approval (`approve`), when any did. */
  approvals?: ToolApproval[] | undefined;
  /** The inputs `repairToolInput` fixed, when it fixed any. */
  repairs?: ToolInputRepair[] | undefined;
  /** What the reply cost, from its usage and the loop's `prices` (only with `prices`). */
  cost?: number | undefined;
}

/** Why a loop stopped before the model was done (`status: 'stopped'`). */
export interface ToolLoopStop {
  /** `stopWhen`: one of its conditions held. `endsLoop`: a call of a tool defined with `endsLoop: true` completed. */
  by: 'stopWhen' | 'endsLoop';
  /** The condition's name (`stepCountIs(3)`, `hasToolCall("submit_answer")`, your function's), or the tool's name. */
  reason: string;
  /** The step after which it stopped. */
  step: number;
}

/**
 * What a re-attaching run found on the server, and how the calls it claimed ended. Each open call
 * of the turn is in exactly one of `claimed`, `heldElsewhere` and `completed`.
 */
export interface ToolLoopReattach {
  /**
   * The calls this run claimed and ran, as the server showed them when it read them: no one had
   * picked them up (`lastHeartbeatAt` null), or their lease had lapsed (a worker had held them and
   * may have run part of the work; the handler's `ctx.attempt` says so), found so at once or while
   * waiting for another worker. Each ran here and nowhere else from then on.
   */
  claimed: ToolCall[];
  /**
   * Calls another worker held (its lease live) when this run tried them, and that worker settled:
   * never run here. As the server showed them once settled.
   */
  heldElsewhere: ToolCall[];
  /** Calls already settled (`COMPLETE`, `ERROR`, `ABANDONED`) when this run first read them: never run again. */
  completed: ToolCall[];
  /** How the claimed calls ended, in the order they were claimed. */
  toolResults: ToolRunResult[];
  /**
   * @deprecated Use `heldElsewhere` (and `claimed`). The calls read `PROCESSING` at first, including
   * those whose lease lapsed later and that this run then claimed (they are in `claimed` too).
   * Removed in the next minor version.
   */
  skipped: ToolCall[];
}

/** How a tool loop ended. */
export interface ToolLoopResult {
  /**
   * `done`: the model stopped asking for tools. `max_steps`: the step cap was hit; resume to go on.
   * `stopped`: a stop condition (`stopWhen`, `endsLoop`) held; `stopped` says which.
   * `held_elsewhere` (only with `reattach`): another process holds the turn: it held every open
   * call (`reattached.heldElsewhere`) or resumed the turn before this run could; this run sent
   * nothing for it, and `messages` is what the session showed.
   */
  status: 'done' | 'max_steps' | 'stopped' | 'held_elsewhere';
  /** Why the loop stopped, when `status` is `stopped`. */
  stopped?: ToolLoopStop | undefined;
  sessionId: string;
  /** Every message the loop's calls appended (user turn, assistant turns, tool results), in index order. */
  messages: Message[];
  /** The text of the last assistant message. */
  finalText: string;
  steps: ToolLoopStep[];
  /**
   * The stop reason of the last reply (`tool_use` when `status` is `max_steps`); `undefined` when
   * that reply was taken from the session by `recover` and nobody reported it, or for a `reattach`
   * that found nothing open, or that another process held (no reply was asked for).
   */
  stopReason: StopReason | undefined;
  /** Token usage summed over the replies that reported it. */
  usage: Usage;
  /** The cost of the steps summed (only with `prices`). */
  cost?: number | undefined;
  /** With `reattach: true`: what the run found when it re-attached, and how the calls it claimed ended. */
  reattached?: ToolLoopReattach | undefined;
}

/** Runs the loop: `emit` each step as it completes; reject on failure. */
export type ToolLoopExecutor = (
  emit: (step: ToolLoopStep) => void,
  signal: AbortSignal,
) => Promise<ToolLoopResult>;

const noop = () => {};

/**
 * A running tool loop: await it for the {@link ToolLoopResult}, or iterate it with `for await` to
 * get each {@link ToolLoopStep} as it completes; both can be used on the same run, and every
 * iterator starts at the first step. Leaving a `for await` loop early (`break`) aborts the run, as
 * does {@link abort}; the run then rejects with `APIUserAbortError`.
 */
export class ToolLoopRun implements PromiseLike<ToolLoopResult>, AsyncIterable<ToolLoopStep> {
  readonly #controller = new AbortController();
  readonly #steps: ToolLoopStep[] = [];
  /** One queue per `for await` loop still reading. */
  readonly #iterators = new Set<EventQueue<ToolLoopStep>>();
  readonly #result: Promise<ToolLoopResult>;
  #outcome: { error: unknown } | undefined;

  constructor(executor: ToolLoopExecutor, signal?: AbortSignal) {
    const controller = this.#controller;
    const unlink = forwardAbort(signal, controller);
    this.#result = Promise.resolve()
      .then(() => executor((step) => this.#push(step), controller.signal))
      .catch((error: unknown) => {
        // Whatever an aborted operation threw, the run reports the abort itself.
        if (controller.signal.aborted) {
          throw new APIUserAbortError('Tool loop was aborted', { cause: controller.signal.reason });
        }
        throw error;
      })
      // Released when the run ends: a long-lived caller's signal must not keep every run alive.
      .finally(unlink);
    this.#result.then(
      () => this.#settle({ error: undefined }),
      (error: unknown) => this.#settle({ error }),
    );
    // A run consumed only by iteration must not also raise an unhandled rejection.
    this.#result.catch(noop);
  }

  /** The steps completed so far. */
  get steps(): readonly ToolLoopStep[] {
    return this.#steps;
  }

  /** Aborted when the run is aborted (by `abort()`, the caller's signal, or `break`). */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** Stops the run: the request in flight and the running tools are aborted. */
  abort(reason?: unknown): void {
    this.#controller.abort(reason ?? new APIUserAbortError('Tool loop was aborted'));
  }

  // biome-ignore lint/suspicious/noThenProperty: the run is deliberately awaitable.
  then<A = ToolLoopResult, B = never>(
    onfulfilled?: ((value: ToolLoopResult) => A | PromiseLike<A>) | null,
    onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.#result.then(onfulfilled, onrejected);
  }

  catch<B = never>(
    onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<ToolLoopResult | B> {
    return this.#result.catch(onrejected);
  }

  finally(onfinally?: (() => void) | null): Promise<ToolLoopResult> {
    return this.#result.finally(onfinally);
  }

  [Symbol.asyncIterator](): AsyncIterator<ToolLoopStep> {
    const queue: EventQueue<ToolLoopStep> = new EventQueue(() => {
      this.#iterators.delete(queue);
      if (this.#outcome === undefined) this.abort(new APIUserAbortError('Tool loop iteration was stopped'));
    }, noop);
    for (const step of this.#steps) queue.push(step);
    if (this.#outcome) queue.finish(this.#outcome.error as Error | undefined);
    else this.#iterators.add(queue);
    return queue;
  }

  #push(step: ToolLoopStep): void {
    this.#steps.push(step);
    for (const queue of this.#iterators) queue.push(step);
  }

  #settle(outcome: { error: unknown }): void {
    this.#outcome = outcome;
    for (const queue of this.#iterators) queue.finish(outcome.error as Error | undefined);
    this.#iterators.clear();
  }
}
