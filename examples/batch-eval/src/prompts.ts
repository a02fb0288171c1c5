import { z } from 'zod';

/** One line of the prompts file. */
export const PromptSchema = z.strictObject({
  id: z.string().min(1),
  prompt: z.string().min(1),
  /** A substring the answer must contain to pass. */
  expect: z.string().optional(),
});
export type Prompt = z.infer<typeof PromptSchema>;

/** A line that is not a prompt, with its 1-based number. */
export interface BadLine {
  line: number;
  error: string;
}

/**
 * Parses JSONL: one prompt object per line; blank lines are skipped. Every bad line is reported
 * (not only the first), and so is an id used twice.
 */
export function parsePrompts(text: string): { prompts: Prompt[]; badLines: BadLine[] } {
  const prompts: Prompt[] = [];
  const badLines: BadLine[] = [];
  const seen = new Map<string, number>();
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = index + 1;
    if (raw.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (error) {
      badLines.push({ line, error: `not JSON (${error instanceof Error ? error.message : String(error)})` });
      return;
    }
    const parsed = PromptSchema.safeParse(value);
    if (!parsed.success) {
      badLines.push({ line, error: z.prettifyError(parsed.error).replaceAll('\n', ' ') });
      return;
    }
    const first = seen.get(parsed.data.id);
    if (first !== undefined) {
      badLines.push({ line, error: `id "${parsed.data.id}" is already used on line ${first}` });
      return;
    }
    seen.set(parsed.data.id, line);
    prompts.push(parsed.data);
  });
  return { prompts, badLines };
}
