import { sandboxCardConfirmResponseSchema } from '#shared/contracts/payments.ts';
import type { z } from '#shared/validation.ts';
import { postJson } from '#client/lib/api-client.ts';

export type SandboxCardConfirmResponse = z.infer<typeof sandboxCardConfirmResponseSchema>;

/**
 * The TEST MODE card form's stand-in for Stripe.js: pays the intent with a test card number. The
 * server credits a successful payment at once, as Stripe's webhook would; a declined card is a
 * 402 with the provider's message.
 */
export function confirmSandboxCard(input: {
  clientSecret: string;
  cardNumber: string;
}): Promise<SandboxCardConfirmResponse> {
  return postJson('/api/sandbox/card/confirm', input, sandboxCardConfirmResponseSchema);
}
