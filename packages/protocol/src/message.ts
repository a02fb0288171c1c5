import * as z from 'zod';
import { ResponseContentBlockSchema } from './content.js';

export const RoleSchema = z.enum(['user', 'assistant', 'system']);
export type Role = z.infer<typeof RoleSchema>;

/**
 * A message of a conversation. Order by `index`, never by `createdAt`: timestamps can collide.
 */
export const MessageSchema = z.looseObject({
  role: RoleSchema,
  /** Strictly increasing per session, never reused (not even after a rewind). */
  index: z.number().int().nonnegative(),
  /** Known block kinds are validated; unknown kinds pass through (forward compatibility). */
  content: z.array(ResponseContentBlockSchema),
  /** Unix ms when the message was retracted (rewind, interrupted reply); `null` while live. */
  deletedAt: z.number().nullable(),
  /** Unix ms when the server stored the message. */
  createdAt: z.number(),
});
export type Message = z.infer<typeof MessageSchema>;
