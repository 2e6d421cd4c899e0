import { lazy, Suspense } from 'react';
import type { Cents } from '#shared/money.ts';
import { usePaymentsConfig } from '../api/get-payments-config.ts';
import { useCardDeposit } from '../hooks/use-card-deposit.ts';
import { confirmWithSandboxCard } from '../lib/card-deposit.ts';
import { DEPOSIT_MESSAGES, DEPOSIT_TITLES } from '../lib/deposit-messages.ts';
import { CardErrorPanel } from './card-error-panel.tsx';
import { DepositSuccess } from './deposit-success.tsx';
import { PanelSpinner } from './panel-spinner.tsx';
import { SandboxCardForm } from './sandbox-card-form.tsx';

// Stripe's React bindings load only when Stripe is the provider, never for the sandbox.
const StripeCardForm = lazy(() => import('./stripe-card-form.tsx'));

export interface CardPanelProps {
  amountCents: Cents;
  onCancel: () => void;
  onDone: () => void;
}

/**
 * The Credit Card panel: Stripe Elements with a publishable key, the TEST MODE form with the
 * sandbox, PAYMENT SERVICE UNAVAILABLE when card payments are off (docs/product.md#messages). Every
 * way a payment can fail ends in the card error panel.
 */
export function CardPanel({ amountCents, onCancel, onDone }: CardPanelProps) {
  const config = usePaymentsConfig();
  const deposit = useCardDeposit(amountCents);

  if (config.isPending) return <PanelSpinner label="Loading the payment form" />;
  if (config.isError) {
    return (
      <CardErrorPanel
        title={DEPOSIT_TITLES.serviceError}
        message={DEPOSIT_MESSAGES.initFailed}
        onCancel={onCancel}
      />
    );
  }
  const { card } = config.data;
  const publishableKey = card.mode === 'stripe' ? card.publishableKey : null;
  if (!card.enabled || (card.mode === 'stripe' && !publishableKey)) {
    return (
      <CardErrorPanel
        title={DEPOSIT_TITLES.cardUnavailable}
        message={DEPOSIT_MESSAGES.cardUnavailable}
        onCancel={onCancel}
      />
    );
  }

  if (deposit.isError) {
    return (
      <CardErrorPanel
        title={DEPOSIT_TITLES.unexpected}
        message={DEPOSIT_MESSAGES.unexpected}
        onCancel={onCancel}
      />
    );
  }
  const outcome = deposit.data;
  if (outcome?.kind === 'failed') {
    return <CardErrorPanel title={outcome.title} message={outcome.message} onCancel={onCancel} />;
  }
  if (outcome?.kind === 'succeeded')
    return <DepositSuccess amount={outcome.amount} onDone={onDone} />;

  if (publishableKey) {
    return (
      <Suspense fallback={<PanelSpinner label="Loading the secure card form" />}>
        <StripeCardForm
          publishableKey={publishableKey}
          amountCents={amountCents}
          pending={deposit.isPending}
          onPay={deposit.mutate}
          onCancel={onCancel}
        />
      </Suspense>
    );
  }
  return (
    <SandboxCardForm
      amountCents={amountCents}
      pending={deposit.isPending}
      onPay={(cardNumber) => deposit.mutate(confirmWithSandboxCard(cardNumber))}
      onCancel={onCancel}
    />
  );
}
