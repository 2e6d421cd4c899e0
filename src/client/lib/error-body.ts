import { z } from '#shared/validation.ts';

/**
 * An error answer's body, read leniently: each part is used if it has the right type and ignored
 * otherwise, so one malformed part (or a proxy's own JSON) never hides the message. A module of
 * its own so that the API client, which the first page needs, does not bring zod with it: this is
 * loaded with the first error answer.
 */
export const errorBodySchema = z.object({
  code: z.string().optional().catch(undefined),
  message: z.string().optional().catch(undefined),
  fields: z.record(z.string(), z.string()).optional().catch(undefined),
  retryAfter: z.number().int().nonnegative().optional().catch(undefined),
});
