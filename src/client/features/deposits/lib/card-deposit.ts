import { PAYMENT_MESSAGES } from '#shared/contracts/payments.ts';
import type { Cents } from '#shared/money.ts';
import { ApiError, serverText } from '#client/lib/api-client.ts';
import { confirmPayment } from '../api/confirm-payment.ts';
import { confirmSandboxCard } from '../api/confirm-sandbox-card.ts';
import { createPaymentIntent } from '../api/create-payment-intent.ts';
import {
  accountRefusalTitle,
  DEPOSIT_MESSAGES,
  DEPOSIT_TITLES,
  type DepositProblem,
} from './deposit-messages.ts';
import { InvalidPaymentResponseError } from './payment-response.ts';

/** What the card provider (Stripe.js, or the sandbox) says after it tried to take the money. */
export type ProviderResult =
  | { kind: 'succeeded'; paymentIntentId: string }
  | { kind: 'failed'; message: string }
  | { kind: 'incomplete' };

/** Pays the intent behind `clientSecret` with the card the player entered. */
export type ConfirmWithProvider = (clientSecret: string) => Promise<ProviderResult>;

export type CardDepositOutcome =
  { kind: 'succeeded'; amount: number } | ({ kind: 'failed' } & DepositProblem);

function failed(title: string, message: string): CardDepositOutcome {
  return { kind: 'failed', title, message };
}

/** docs/product.md#messages: why a card payment could not be opened, in the player's words. */
export function initFailureMessage(error: unknown): string {
  if (error instanceof InvalidPaymentResponseError) return DEPOSIT_MESSAGES.invalidConfiguration;
  if (error instanceof ApiError) {
    return error.status === 503 ? PAYMENT_MESSAGES.cardUnavailable : serverText(error);
  }
  return DEPOSIT_MESSAGES.initFailed;
}

/**
 * A card deposit from start to end: open an intent for the amount, let the provider take the
 * money, then have the server credit it. Never throws: every way it can end is an outcome with
 * the SPEC's heading and message, so the panel only has to show it.
 */
export async function depositByCard(
  amountCents: Cents,
  confirmWithProvider: ConfirmWithProvider,
): Promise<CardDepositOutcome> {
  let clientSecret: string;
  try {
    ({ clientSecret } = await createPaymentIntent(amountCents));
  } catch (error) {
    const refusal = error instanceof ApiError ? accountRefusalTitle(error.code) : null;
    return failed(refusal ?? DEPOSIT_TITLES.serviceError, initFailureMessage(error));
  }

  let result: ProviderResult;
  try {
    result = await confirmWithProvider(clientSecret);
  } catch {
    return failed(DEPOSIT_TITLES.unexpected, DEPOSIT_MESSAGES.unexpected);
  }
  if (result.kind === 'failed') return failed(DEPOSIT_TITLES.paymentFailed, result.message);
  if (result.kind === 'incomplete') {
    return failed(DEPOSIT_TITLES.paymentIncomplete, DEPOSIT_MESSAGES.paymentIncomplete);
  }

  try {
    const confirmed = await confirmPayment(result.paymentIntentId, amountCents);
    return { kind: 'succeeded', amount: confirmed.amount };
  } catch (error) {
    if (error instanceof ApiError && error.code === 'PAYMENT_NOT_COMPLETED') {
      return failed(DEPOSIT_TITLES.paymentIncomplete, DEPOSIT_MESSAGES.paymentIncomplete);
    }
    // The card was charged; only the credit is in doubt (the webhook may still settle it).
    return failed(DEPOSIT_TITLES.balanceUpdateFailed, DEPOSIT_MESSAGES.balanceUpdateFailed);
  }
}

/**
 * The TEST MODE provider: the server's sandbox decides by card number, and answers a refusal
 * (a declined or mistyped test card) with a 4xx whose message is the provider's.
 */
export function confirmWithSandboxCard(cardNumber: string): ConfirmWithProvider {
  return async (clientSecret) => {
    try {
      const { paymentIntentId } = await confirmSandboxCard({ clientSecret, cardNumber });
      return { kind: 'succeeded', paymentIntentId };
    } catch (error) {
      if (error instanceof ApiError && error.status < 500) {
        return { kind: 'failed', message: serverText(error) };
      }
      throw error;
    }
  };
}
