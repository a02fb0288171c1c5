import type { z } from 'zod';

// Not z.prettifyError: its multi-line `✖ message → at path` form breaks the one-line `path: message`.

/** One line per zod issue, each naming the field path (`agents.support.systemPrompt: ...`). */
export function issueLines(error: z.ZodError, prefix?: string): string[] {
  return error.issues.map((issue) => {
    const path = [...(prefix === undefined ? [] : [prefix]), ...issue.path.map(String)].join('.');
    return path === '' ? issue.message : `${path}: ${issue.message}`;
  });
}

/** {@link issueLines} joined with `; `. */
export function formatIssues(error: z.ZodError, prefix?: string): string {
  return issueLines(error, prefix).join('; ');
}
