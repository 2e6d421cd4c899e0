import { useState } from 'react';
import { Wallet } from 'lucide-react';
import { centsToDecimalString, formatCents, type Cents } from '#shared/money.ts';
import { playBreakMessage } from '#shared/play-breaks.ts';
import { suspensionMessage } from '#shared/suspension.ts';
import { Button } from '#client/components/ui/button.tsx';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '#client/components/ui/dialog.tsx';
import { useUser } from '#client/features/auth/api/get-user.ts';
import { usePaymentsConfig } from '../api/get-payments-config.ts';
import { DEPOSIT_MESSAGES, DEPOSIT_TITLES } from '../lib/deposit-messages.ts';
import { AmountStep } from './amount-step.tsx';
import { CardPanel } from './card-panel.tsx';
import { CryptoPanel } from './crypto-panel.tsx';
import { DepositProblemPanel } from './deposit-problem-panel.tsx';
import { MethodStep } from './method-step.tsx';
import { TestModeBadge } from './test-mode-badge.tsx';

type Step = 'amount' | 'method' | 'card' | 'crypto';

function stepDescription(step: Step, amountCents: Cents | null): string {
  const amount = amountCents === null ? '' : formatCents(amountCents);
  switch (step) {
    case 'amount':
      return 'Add funds to your balance by card or cryptocurrency.';
    case 'method':
      return 'Choose how you want to pay.';
    case 'card':
      return `Pay ${amount} by credit card.`;
    case 'crypto':
      return `Pay ${amount} in cryptocurrency.`;
  }
}

/**
 * The dialog's steps (docs/product.md#screens): amount entry, then Credit Card or Cryptocurrency,
 * then that panel. Cancel in any later step returns to the entry, keeping the amount. It mounts
 * afresh each time the dialog opens, so a reopened dialog starts at the entry.
 */
function DepositFlow({ onClose }: { onClose: () => void }) {
  const [step, setStep] = useState<Step>('amount');
  const [amountCents, setAmountCents] = useState<Cents | null>(null);
  const config = usePaymentsConfig();
  const { user } = useUser();
  const backToEntry = () => setStep('amount');

  // The server refuses deposits during a suspension (docs/fair-play.md) or the player's own break
  // (docs/responsible-play.md): say why before they start.
  const paused = user?.suspension
    ? {
        description: DEPOSIT_MESSAGES.depositsPaused,
        title: DEPOSIT_TITLES.accountSuspended,
        message: suspensionMessage(user.suspension),
      }
    : user?.playBreak
      ? {
          description: DEPOSIT_MESSAGES.depositsPausedByBreak,
          title: DEPOSIT_TITLES.playPaused,
          message: playBreakMessage(user.playBreak),
        }
      : null;
  if (paused) {
    return (
      <>
        <DialogHeader>
          <DialogTitle>Deposit Funds</DialogTitle>
          <DialogDescription>{paused.description}</DialogDescription>
        </DialogHeader>
        <DepositProblemPanel
          title={paused.title}
          message={paused.message}
          actions={
            <Button variant="outline" onClick={onClose}>
              CLOSE
            </Button>
          }
        />
      </>
    );
  }

  const cardSandbox = config.data?.card.mode === 'sandbox';
  const cryptoSandbox = config.data?.crypto.mode === 'sandbox';
  const testMode =
    step === 'card'
      ? cardSandbox
      : step === 'crypto'
        ? cryptoSandbox
        : cardSandbox || cryptoSandbox;

  return (
    <>
      <DialogHeader>
        <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
          <DialogTitle>Deposit Funds</DialogTitle>
          {testMode && <TestModeBadge />}
        </div>
        <DialogDescription>{stepDescription(step, amountCents)}</DialogDescription>
      </DialogHeader>
      {step === 'amount' || amountCents === null ? (
        <AmountStep
          defaultAmount={amountCents === null ? '' : centsToDecimalString(amountCents)}
          onContinue={(amount) => {
            setAmountCents(amount);
            setStep('method');
          }}
        />
      ) : step === 'method' ? (
        <MethodStep
          amountCents={amountCents}
          config={config.data}
          onChoose={setStep}
          onCancel={backToEntry}
        />
      ) : step === 'card' ? (
        <CardPanel amountCents={amountCents} onCancel={backToEntry} onDone={onClose} />
      ) : (
        <CryptoPanel amountCents={amountCents} onCancel={backToEntry} onDone={onClose} />
      )}
    </>
  );
}

/** The profile's Deposit Funds button and dialog. */
export function DepositFundsDialog() {
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button className="w-full sm:w-auto">
          <Wallet aria-hidden="true" />
          DEPOSIT FUNDS
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DepositFlow onClose={() => setOpen(false)} />
      </DialogContent>
    </Dialog>
  );
}
