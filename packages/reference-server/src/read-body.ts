import type { z } from 'zod';
import { HttpError } from './http-error.js';

/**
 * Reads a JSON body, refusing more than `maxBytes` (`413 payload_too_large`) whether or not
 * `Content-Length` was sent. An empty body is `undefined`; a body that is not JSON (or not UTF-8)
 * is `400 invalid_json`.
 */
export async function readJsonBody(request: Request, maxBytes: number): Promise<unknown> {
  const tooLarge = () =>
    new HttpError('payload_too_large', `The body is larger than ${maxBytes} bytes`, {
      details: { maxBytes },
    });
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge();
  if (request.body === null) return undefined;

  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        void reader.cancel().catch(() => {});
        throw tooLarge();
      }
      chunks.push(value);
    }
  } catch (error) {
    if (error instanceof HttpError) throw error;
    throw new HttpError('invalid_request', 'The request body could not be read', { cause: error });
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new HttpError('invalid_json', 'The body is not valid UTF-8 JSON');
  }
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new HttpError('invalid_json', `The body is not valid JSON: ${(error as Error).message}`);
  }
}

/** Validates `value` with `schema`; a failure is `400 invalid_request` naming each field path. */
export function parseWith<T>(schema: z.ZodType<T>, value: unknown, what = 'body'): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issues = flattenIssues(result.error.issues, []).map((issue) => ({
    path: issue.path.length === 0 ? `(${what})` : issue.path.map(String).join('.'),
    message: issue.message,
  }));
  throw new HttpError('invalid_request', issues.map((i) => `${i.path}: ${i.message}`).join('; '), {
    details: { issues },
  });
}

interface FlatIssue {
  path: PropertyKey[];
  message: string;
}

/**
 * A failed union reports "Invalid input" with one issue list per branch. Report instead the branch
 * that got furthest into the value (its deepest issue), which is the one the caller meant: for
 * `content: [{ type: 'tool_result' }]` the array branch, not "expected string".
 */
function flattenIssues(issues: readonly z.core.$ZodIssue[], base: PropertyKey[]): FlatIssue[] {
  return issues.flatMap((issue) => {
    const path = [...base, ...issue.path];
    if (issue.code === 'invalid_union' && issue.errors.length > 0) {
      const branches = issue.errors.map((branch) => flattenIssues(branch, path));
      const depth = (branch: FlatIssue[]) => Math.max(...branch.map((i) => i.path.length));
      const best = branches.reduce((a, b) => (depth(b) > depth(a) ? b : a));
      if (depth(best) > path.length) return best;
    }
    return [{ path, message: issue.message }];
  });
}
