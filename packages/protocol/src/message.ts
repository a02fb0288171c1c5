import { z } from 'zod';
import { ContentBlockSchema } from './content.js';

export const RoleSchema = z.enum(['user', 'assistant', 'system']);
export type Role = z.infer<typeof RoleSchema>;

/**
 * A message of a conversation. Order by `index`, never by `createdAt`: timestamps can collide.
 */
export const MessageSchema = z.looseObject({
  role: RoleSchema,
  /** Strictly increasing per session, never reused (not even after a rewind). */
  index: z.number().int().nonnegative(),
  content: z.array(ContentBlockSchema),
  /** Unix ms when the message was retracted (rewind, interrupted reply); `null` while live. */
  deletedAt: z.number().nullable(),
  /** Unix ms when the server stored the message. */
  createdAt: z.number(),
});
export type Message = z.infer<typeof MessageSchema>;
