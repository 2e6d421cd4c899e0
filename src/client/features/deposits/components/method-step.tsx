import type { LucideIcon } from 'lucide-react';
import { Bitcoin, ChevronRight, CreditCard } from 'lucide-react';
import type { PaymentsConfig } from '#shared/contracts/payments.ts';
import type { Cents } from '#shared/money.ts';
import { formatCents } from '#shared/money.ts';
import { Button } from '#client/components/ui/button.tsx';
import { TestModeBadge } from './test-mode-badge.tsx';

export type DepositMethod = 'card' | 'crypto';

/**
 * A payment method as a large button. Its name is everything it shows (title, TEST MODE badge and
 * description), so that what a speech-input user reads out is what the button is called.
 */
function MethodButton({
  icon: Icon,
  title,
  description,
  testMode,
  onClick,
}: {
  icon: LucideIcon;
  title: string;
  description: string;
  testMode: boolean;
  onClick: () => void;
}) {
  return (
    <button
      type="button"
      onClick={onClick}
      className="group flex w-full cursor-pointer items-center gap-4 rounded-lg border border-ink-600 bg-ink-900/70 p-4 text-left transition-colors hover:border-accent/70 hover:bg-accent/5"
    >
      <span className="flex size-11 shrink-0 items-center justify-center rounded-full border border-accent/40 bg-accent/10 text-accent">
        <Icon aria-hidden="true" className="size-5" />
      </span>
      <span className="min-w-0 flex-1 space-y-1">
        <span className="flex flex-wrap items-center gap-2">
          <span className="font-display text-sm font-bold tracking-wider text-white">{title}</span>
          {testMode && <TestModeBadge />}
        </span>
        <span className="block text-sm text-slate-400">{description}</span>
      </span>
      <ChevronRight
        aria-hidden="true"
        className="size-5 shrink-0 text-slate-400 transition-colors group-hover:text-accent"
      />
    </button>
  );
}

export interface MethodStepProps {
  amountCents: Cents;
  /** Unknown while the config loads; the badges appear once it is known. */
  config: PaymentsConfig | undefined;
  onChoose: (method: DepositMethod) => void;
  onCancel: () => void;
}

/** The second step: Credit Card or Cryptocurrency, for the amount just entered. */
export function MethodStep({ amountCents, config, onChoose, onCancel }: MethodStepProps) {
  return (
    <div className="space-y-5">
      <p className="flex items-baseline justify-between gap-4 rounded-lg border border-ink-700 bg-ink-900/60 px-4 py-3">
        <span className="text-sm text-slate-400">Deposit amount</span>
        <span className="font-display text-lg font-bold text-white tabular-nums">
          {formatCents(amountCents)}
        </span>
      </p>
      <div role="group" aria-label="Payment method" className="grid gap-3">
        <MethodButton
          icon={CreditCard}
          title="Credit Card"
          description="Pay with a credit or debit card."
          testMode={config?.card.mode === 'sandbox'}
          onClick={() => onChoose('card')}
        />
        <MethodButton
          icon={Bitcoin}
          title="Cryptocurrency"
          description="Send coins from your own wallet to a payment address."
          testMode={config?.crypto.mode === 'sandbox'}
          onClick={() => onChoose('crypto')}
        />
      </div>
      <div className="flex justify-end">
        <Button variant="ghost" onClick={onCancel}>
          CANCEL
        </Button>
      </div>
    </div>
  );
}
