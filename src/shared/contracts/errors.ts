import { z } from '../validation.ts';
import { ERROR_CODES } from './error-codes.ts';

export type { ErrorCode } from './error-codes.ts';

/**
 * Each error body is `{ code, message, fields? }`, where `fields` carries per-field validation
 * messages.
 */
export const errorBodySchema = z.object({
  code: z.enum(ERROR_CODES),
  message: z.string(),
  fields: z.record(z.string(), z.string()).optional(),
  retryAfter: z.number().int().optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;
