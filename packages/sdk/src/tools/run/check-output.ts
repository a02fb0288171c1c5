import { DEFAULT_MAX_BODY_BYTES } from '../../defaults.js';
import { thrownText } from '../../internal/thrown-text.js';
import { type AnyTool, RESERVED_OUTPUT_FIELD } from '../define/define-tool.js';
import type { ToolObject } from '../define/tool-schema.js';
import { checkValue } from './check-value.js';
import { responseBodyBytes, toolOutputTooLarge } from './output-size.js';
import { stageFailure, type ToolStage } from './tool-pipeline.js';

/**
 * The output's check, outside the middleware: what the handler returns, a middleware's short-circuit
 * or an approval's `respond` must be an object, match the output schema (its parsed value is what is
 * sent), leave the protocol's `state` field alone and fit in a request body. Else `INVALID_OUTPUT`.
 */
export function checkOutputStage(tool: AnyTool, maxBodyBytes = DEFAULT_MAX_BODY_BYTES): ToolStage {
  return async ({ input, ctx }, next) => {
    const { name } = ctx;
    const invalid = (message: string, cause: unknown) => stageFailure(ctx, 'INVALID_OUTPUT', message, cause);
    const raw = await next(input, ctx);
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      const got = raw === null ? 'null' : Array.isArray(raw) ? 'an array' : typeof raw;
      throw invalid(`Tool "${name}" returned ${got}; a tool output must be an object`, raw);
    }
    let output = raw as ToolObject;
    if (tool.output) {
      const checked = await checkValue(tool.output, raw, 'output', name);
      if ('failed' in checked) throw invalid(checked.failed.message, checked.failed.cause);
      output = checked.value as ToolObject;
    }
    if (Object.hasOwn(output, RESERVED_OUTPUT_FIELD)) {
      throw invalid(
        `Tool "${name}" returned a "${RESERVED_OUTPUT_FIELD}" field, which the protocol reserves`,
        output,
      );
    }
    let bytes: number;
    try {
      bytes = responseBodyBytes(output);
    } catch (error) {
      // A bigint or a cycle: no report could carry it, and the model can be told why.
      throw invalid(
        `Tool "${name}" returned output that cannot be sent as JSON: ${thrownText(error)}`,
        error,
      );
    }
    if (bytes > maxBodyBytes) {
      const tooLarge = toolOutputTooLarge(name, bytes, maxBodyBytes);
      throw invalid(tooLarge.message, tooLarge);
    }
    return output;
  };
}
