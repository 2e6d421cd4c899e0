import type { Env } from '../../../env.ts';
import { createNowPaymentsPayoutProvider } from './nowpayments-payout-provider.ts';
import { createSandboxPayoutProvider } from './sandbox-payout-provider.ts';
import type { PayoutProvider } from './types.ts';

/**
 * Who sends payouts (docs/payouts.md): NOWPayments when its API key and the account's sign-in and
 * 2FA secret are set; the TEST MODE sandbox only when no real provider takes deposits at all (no
 * Stripe key, no NOWPayments key). Otherwise there is none: real money comes in, and a sandbox that
 * marks payouts sent without sending would let it leave the ledger unpaid, so every payout waits
 * for an admin.
 */
export function selectPayoutProvider(env: Env, clock: () => Date): PayoutProvider | null {
  if (!env.NOWPAYMENTS_API_KEY && !env.STRIPE_SECRET_KEY) return createSandboxPayoutProvider(clock);
  if (
    !env.NOWPAYMENTS_API_KEY ||
    !env.NOWPAYMENTS_EMAIL ||
    !env.NOWPAYMENTS_PASSWORD ||
    !env.NOWPAYMENTS_2FA_SECRET
  ) {
    return null;
  }
  return createNowPaymentsPayoutProvider({
    apiKey: env.NOWPAYMENTS_API_KEY,
    email: env.NOWPAYMENTS_EMAIL,
    password: env.NOWPAYMENTS_PASSWORD,
    twoFactorSecret: env.NOWPAYMENTS_2FA_SECRET,
    apiBase: env.NOWPAYMENTS_API_BASE,
    ipnCallbackUrl: env.PUBLIC_URL
      ? new URL('/api/webhooks/nowpayments/payouts', env.PUBLIC_URL).toString()
      : undefined,
  });
}
