import type { Database } from '../../../db/client.ts';
import type { Env } from '../../../env.ts';
import {
  createNowPaymentsProvider,
  type NowPaymentsProvider,
} from './nowpayments-crypto-provider.ts';
import { createSandboxCardProvider, type SandboxCardProvider } from './sandbox-card-provider.ts';
import {
  createSandboxCryptoProvider,
  type SandboxCryptoProvider,
} from './sandbox-crypto-provider.ts';
import { createStripeCardProvider, type StripeCardProvider } from './stripe-card-provider.ts';

export interface PaymentProviders {
  card: StripeCardProvider | SandboxCardProvider;
  crypto: NowPaymentsProvider | SandboxCryptoProvider;
}

/**
 * A real provider wherever its key is configured, the offline sandbox otherwise (docs/payments.md).
 * The IPN address is given to NOWPayments only when the public URL is known.
 */
export function selectPaymentProviders(
  env: Env,
  db: Database,
  clock: () => Date,
): PaymentProviders {
  const card = env.STRIPE_SECRET_KEY
    ? createStripeCardProvider({ secretKey: env.STRIPE_SECRET_KEY, apiBase: env.STRIPE_API_BASE })
    : createSandboxCardProvider(db, clock);
  const crypto = env.NOWPAYMENTS_API_KEY
    ? createNowPaymentsProvider({
        apiKey: env.NOWPAYMENTS_API_KEY,
        apiBase: env.NOWPAYMENTS_API_BASE,
        payCurrency: env.NOWPAYMENTS_PAY_CURRENCY,
        ipnCallbackUrl: env.PUBLIC_URL
          ? new URL('/api/webhooks/nowpayments', env.PUBLIC_URL).toString()
          : undefined,
      })
    : createSandboxCryptoProvider(db, clock);
  return { card, crypto };
}
