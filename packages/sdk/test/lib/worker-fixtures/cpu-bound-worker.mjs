// A tool worker whose behaviour the test picks through the input's `mode`. `workerData` is an
// Int32Array over a SharedArrayBuffer: [0] release flag set by the test, [1] set to 1 when the
// handler starts burning CPU.
import { serveToolHandler } from '@parley/sdk/worker';
import { burnCpu } from './burn-cpu.mjs';

class Temperature {
  constructor(celsius) {
    this.celsius = celsius;
  }
}

serveToolHandler(async (input, ctx) => {
  const shared = ctx.workerData instanceof Int32Array ? ctx.workerData : undefined;
  const started = () => {
    if (!shared) return;
    Atomics.store(shared, 1, 1);
    Atomics.notify(shared, 1);
  };
  switch (input.mode) {
    case 'until-released':
      started();
      return { rounds: burnCpu(() => Atomics.load(shared, 0) === 1) };
    case 'forever':
      started();
      return { rounds: burnCpu(() => false) };
    case 'until-aborted': {
      started();
      const rounds = burnCpu(() => ctx.signal.aborted);
      throw new Error(`stopped after ${rounds > 0 ? 'some' : 'no'} rounds: ${ctx.signal.reason.message}`);
    }
    case 'await-abort':
      started();
      await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve, { once: true }));
      throw ctx.signal.reason;
    case 'until-throw-if-aborted':
      started();
      burnCpu(() => {
        ctx.signal.throwIfAborted();
        return false;
      });
      break;
    case 'context':
      return {
        input,
        sessionId: ctx.sessionId,
        requestId: ctx.requestId,
        name: ctx.name,
        rawInput: ctx.rawInput,
      };
    case 'throw':
      throw new RangeError(input.message);
    case 'throw-nothing':
      throw undefined;
    case 'return-function':
      return { format: () => 'x' };
    case 'return-instance':
      return { reading: { now: new Temperature(18) } };
    case 'return-date':
      return { readings: [{ at: new Date(0) }] };
    case 'exit':
      process.exit(3);
      break;
    default:
      throw new Error(`unknown mode ${input.mode}`);
  }
});
