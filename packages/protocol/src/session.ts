import * as z from 'zod';
import { CustomizationsSchema } from './customizations.js';

/** `POST /v1/sessions` body (the body itself is optional). */
export const CreateSessionRequestSchema = z.strictObject({
  customizations: CustomizationsSchema.optional(),
});

/** `POST /v1/sessions` → 201. */
export const CreateSessionResponseSchema = z.looseObject({ sessionId: z.string() });
export type CreateSessionResponse = z.infer<typeof CreateSessionResponseSchema>;

export const SessionSummarySchema = z.looseObject({
  sessionId: z.string(),
  /** Unix ms. */
  createdAt: z.number(),
});
export type SessionSummary = z.infer<typeof SessionSummarySchema>;

/** `GET /v1/sessions` → 200, newest first. */
export const ListSessionsResponseSchema = z.looseObject({ sessions: z.array(SessionSummarySchema) });
export type ListSessionsResponse = z.infer<typeof ListSessionsResponseSchema>;
