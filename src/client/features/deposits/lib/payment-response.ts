import type { z } from '#shared/validation.ts';
import { DEPOSIT_MESSAGES } from './deposit-messages.ts';

/**
 * A payment answer without what the dialog needs (a card payment's clientSecret, a crypto
 * payment's paymentId): the product's "Invalid payment configuration received from server".
 */
export class InvalidPaymentResponseError extends Error {
  override readonly name = 'InvalidPaymentResponseError';

  constructor(cause: unknown) {
    super(DEPOSIT_MESSAGES.invalidConfiguration, { cause });
  }
}

/** Reads a 2xx payment answer against its contract, or throws InvalidPaymentResponseError. */
export async function readPaymentResponse<T>(response: Response, schema: z.ZodType<T>): Promise<T> {
  let body: unknown;
  try {
    body = await response.json();
  } catch (error) {
    throw new InvalidPaymentResponseError(error);
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new InvalidPaymentResponseError(parsed.error);
  return parsed.data;
}
