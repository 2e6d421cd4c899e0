import { cryptoDepositNotificationResponseSchema } from '#shared/contracts/payments.ts';
import { centsToDecimalString, type Cents } from '#shared/money.ts';
import type { z } from '#shared/validation.ts';
import { postJson } from '#client/lib/api-client.ts';

export type CryptoDepositNotification = z.infer<typeof cryptoDepositNotificationResponseSchema>;

/**
 * The product's fallback (docs/product.md#calls) when a crypto payment cannot be created: tells the
 * server the player means to pay `amount` in `currency` by other means. It records the deposit for
 * an admin to check and credits nothing.
 */
export function notifyCryptoDeposit(input: {
  amountCents: Cents;
  currency: string;
}): Promise<CryptoDepositNotification> {
  return postJson(
    '/api/crypto-deposit-notification',
    { amount: centsToDecimalString(input.amountCents), currency: input.currency },
    cryptoDepositNotificationResponseSchema,
  );
}
