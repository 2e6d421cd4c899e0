import { use, useState, type FormEvent } from 'react';
import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
import type { Stripe, StripeElementsOptions } from '@stripe/stripe-js';
import { loadStripe } from '@stripe/stripe-js/pure';
import { Lock } from 'lucide-react';
import { formatCents, type Cents } from '#shared/money.ts';
import { Button } from '#client/components/ui/button.tsx';
import type { ConfirmWithProvider } from '../lib/card-deposit.ts';
import { DEPOSIT_MESSAGES, DEPOSIT_TITLES } from '../lib/deposit-messages.ts';
import { CardErrorPanel } from './card-error-panel.tsx';

/**
 * Stripe Elements, for when a publishable key is configured. This module is loaded only then
 * (card-panel.tsx imports it lazily), and Stripe.js itself comes from Stripe's own host as PCI
 * requires: the sandbox bundle carries none of it.
 */

/** One Stripe.js per key for the page's life; null when it could not be loaded. */
const stripeByKey = new Map<string, Promise<Stripe | null>>();

function stripeFor(publishableKey: string): Promise<Stripe | null> {
  let stripe = stripeByKey.get(publishableKey);
  if (!stripe) {
    stripe = loadStripe(publishableKey).catch(() => null);
    stripeByKey.set(publishableKey, stripe);
  }
  return stripe;
}

const PAYMENT_NOT_COMPLETED_FALLBACK = 'Your payment could not be completed.';

function confirmWithStripe(
  stripe: Stripe,
  elements: NonNullable<ReturnType<typeof useElements>>,
): ConfirmWithProvider {
  return async (clientSecret) => {
    const result = await stripe.confirmPayment({
      elements,
      clientSecret,
      // Cards complete here; a method that must leave the page comes back to the profile, and
      // Stripe's webhook credits it.
      redirect: 'if_required',
      confirmParams: { return_url: `${window.location.origin}/profile` },
    });
    if (result.error) {
      return { kind: 'failed', message: result.error.message ?? PAYMENT_NOT_COMPLETED_FALLBACK };
    }
    return result.paymentIntent.status === 'succeeded'
      ? { kind: 'succeeded', paymentIntentId: result.paymentIntent.id }
      : { kind: 'incomplete' };
  };
}

interface StripeCardFormProps {
  publishableKey: string;
  amountCents: Cents;
  pending: boolean;
  onPay: (confirmWithProvider: ConfirmWithProvider) => void;
  onCancel: () => void;
}

function PaymentForm({
  amountCents,
  pending,
  onPay,
  onCancel,
}: Omit<StripeCardFormProps, 'publishableKey'>) {
  const stripe = useStripe();
  const elements = useElements();
  const [ready, setReady] = useState(false);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!stripe || !elements) return;
    // Stripe checks the card details first and shows any problem under its own fields; the
    // payment intent is opened only for details that pass.
    const { error } = await elements.submit();
    if (error) return;
    onPay(confirmWithStripe(stripe, elements));
  };

  return (
    <form onSubmit={(event) => void onSubmit(event)} className="space-y-5">
      <PaymentElement onReady={() => setReady(true)} options={{ layout: 'tabs' }} />
      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <Button variant="ghost" onClick={onCancel} disabled={pending}>
          CANCEL
        </Button>
        <Button type="submit" disabled={!ready || pending}>
          <Lock aria-hidden="true" />
          {pending ? 'PROCESSING...' : `PAY ${formatCents(amountCents)}`}
        </Button>
      </div>
    </form>
  );
}

/** Suspends (inside the card panel's Suspense) until Stripe.js has loaded. */
export default function StripeCardForm({ publishableKey, ...props }: StripeCardFormProps) {
  const stripe = use(stripeFor(publishableKey));
  if (!stripe) {
    return (
      <CardErrorPanel
        title={DEPOSIT_TITLES.serviceError}
        message={DEPOSIT_MESSAGES.initFailed}
        onCancel={props.onCancel}
      />
    );
  }
  // Deferred intent: Elements shows the card form for the amount; the intent is created on Pay.
  const options: StripeElementsOptions = {
    mode: 'payment',
    amount: Number(props.amountCents),
    currency: 'usd',
    appearance: {
      theme: 'night',
      variables: { colorPrimary: '#22d3ee', colorBackground: '#080c17', borderRadius: '6px' },
    },
  };
  return (
    <Elements stripe={stripe} options={options}>
      <PaymentForm {...props} />
    </Elements>
  );
}
