import type { ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import {
  CircleAlert,
  CircleCheck,
  ExternalLink,
  LoaderCircle,
  RefreshCw,
  TriangleAlert,
} from 'lucide-react';
import type { CryptoPaymentResponse } from '#shared/contracts/payments.ts';
import { centsToDollarNumber, formatCents, type Cents } from '#shared/money.ts';
import { Button } from '#client/components/ui/button.tsx';
import { cn } from '#client/lib/cn.ts';
import { toast } from '#client/lib/toast.ts';
import { refreshSessionUser } from '#client/features/auth/api/session-cache.ts';
import { transactionsQueryKey } from '#client/features/wallet/api/get-transactions.ts';
import { useCryptoStatus } from '../api/get-crypto-status.ts';
import { usePaymentsConfig } from '../api/get-payments-config.ts';
import { useCryptoDeposit } from '../hooks/use-crypto-deposit.ts';
import {
  cryptoStatusText,
  useCryptoPaymentStatus,
  type CryptoWatchState,
} from '../hooks/use-crypto-payment-status.ts';
import { formatCountdown, useSecondsUntil } from '../hooks/use-seconds-until.ts';
import {
  DEPOSIT_MESSAGES,
  DEPOSIT_TITLES,
  depositSuccessMessage,
} from '../lib/deposit-messages.ts';
import { formatCryptoAmount } from '../lib/crypto-deposit.ts';
import { CRYPTO_SUCCESS_TOAST_MS } from '../lib/deposit-timing.ts';
import { CopyButton } from './copy-button.tsx';
import { DepositProblemPanel } from './deposit-problem-panel.tsx';
import { PanelSpinner } from './panel-spinner.tsx';
import { QrCode } from './qr-code.tsx';

function StatusLine({ watch }: { watch: CryptoWatchState }) {
  const done = watch.kind === 'confirmed';
  const ended = watch.kind === 'expired' || watch.kind === 'failed';
  const troubled = watch.kind === 'check-failed' || watch.kind === 'rate-limited';
  const Icon = done ? CircleCheck : ended ? CircleAlert : troubled ? TriangleAlert : LoaderCircle;
  return (
    <p
      role="status"
      className={cn(
        'flex items-center gap-2 rounded-lg border px-4 py-3 font-display text-xs font-bold tracking-wider',
        done && 'border-emerald-400/50 bg-emerald-400/10 text-emerald-300',
        ended && 'border-red-400/50 bg-red-950/40 text-red-200',
        troubled && 'border-amber-400/50 bg-amber-400/10 text-amber-200',
        !done && !ended && !troubled && 'border-accent/40 bg-accent/5 text-accent',
      )}
    >
      <Icon
        aria-hidden="true"
        className={cn('size-4 shrink-0', !done && !ended && !troubled && 'animate-spin')}
      />
      {cryptoStatusText(watch)}
    </p>
  );
}

function DetailRow({
  label,
  className,
  children,
}: {
  label: string;
  className?: string;
  children: ReactNode;
}) {
  // The <div> directly around the pair is the only wrapper a <dl> may hold.
  return (
    <div className={cn('min-w-0 space-y-1', className)}>
      <dt className="text-xs font-semibold tracking-wider text-slate-400 uppercase">{label}</dt>
      <dd className="flex min-w-0 items-center gap-2">{children}</dd>
    </div>
  );
}

interface CryptoPaymentViewProps {
  payment: CryptoPaymentResponse;
  amountCents: Cents;
  sandbox: boolean;
  onCancel: () => void;
  onDone: () => void;
  onNewPayment: () => void;
}

/** The created payment: what to send where, the QR code, the time left and the status line. */
function CryptoPaymentView({
  payment,
  amountCents,
  sandbox,
  onCancel,
  onDone,
  onNewPayment,
}: CryptoPaymentViewProps) {
  const queryClient = useQueryClient();
  const watch = useCryptoPaymentStatus(payment.paymentId, {
    onConfirmed: () => {
      toast({
        title: DEPOSIT_TITLES.success,
        description: depositSuccessMessage(centsToDollarNumber(amountCents)),
        duration: CRYPTO_SUCCESS_TOAST_MS,
      });
      // The account socket usually brings the new balance first; this covers a lost socket.
      void refreshSessionUser(queryClient);
      void queryClient.invalidateQueries({ queryKey: transactionsQueryKey });
    },
    onExpired: () => {
      toast({
        title: DEPOSIT_TITLES.paymentExpired,
        description: DEPOSIT_MESSAGES.paymentExpired,
        variant: 'destructive',
      });
    },
  });
  const secondsLeft = useSecondsUntil(payment.expirationTime);
  const currency = payment.paymentCurrency.toUpperCase();
  const coinAmount = formatCryptoAmount(payment.paymentAmount);
  const ended = watch.kind === 'expired' || watch.kind === 'failed';
  const open = watch.kind !== 'confirmed' && !ended;

  return (
    <div className="space-y-5">
      <div className="grid items-start gap-5 sm:grid-cols-[auto_minmax(0,1fr)]">
        <QrCode
          value={payment.paymentAddress}
          label={`QR code of the ${currency} payment address`}
          className="mx-auto size-44 rounded-lg sm:size-40"
        />
        {/* The amount and the address take a line each; the deposit and the time left share one. */}
        <dl className="flex min-w-0 flex-wrap gap-x-8 gap-y-4">
          <DetailRow label="Send exactly" className="basis-full">
            <span className="min-w-0 font-mono text-lg font-semibold break-all text-white">
              {coinAmount} {currency}
            </span>
            <CopyButton value={coinAmount} what="amount" />
          </DetailRow>
          <DetailRow label={`To this ${currency} address`} className="basis-full">
            <code className="min-w-0 flex-1 rounded-md border border-ink-600 bg-ink-900 px-2 py-1.5 font-mono text-sm break-all text-slate-100">
              {payment.paymentAddress}
            </code>
            <CopyButton value={payment.paymentAddress} what="address" />
          </DetailRow>
          <DetailRow label="Deposit">
            <span className="font-display font-bold text-white tabular-nums">
              {formatCents(amountCents)}
            </span>
          </DetailRow>
          {secondsLeft !== null && open && (
            <DetailRow label="Expires in">
              <span role="timer" className="font-display font-bold text-white tabular-nums">
                {formatCountdown(secondsLeft)}
              </span>
            </DetailRow>
          )}
        </dl>
      </div>

      <StatusLine watch={watch} />
      {watch.kind === 'waiting' && watch.partiallyPaid && (
        <p className="text-sm text-amber-200">
          Only part of the amount has arrived. Send the rest to the same address, or contact
          support.
        </p>
      )}

      {sandbox && payment.paymentUrl && open && (
        <a
          href={payment.paymentUrl}
          target="_blank"
          rel="noopener noreferrer"
          className="inline-flex items-center gap-2 rounded-sm text-sm font-semibold text-amber-300 underline-offset-4 hover:underline"
        >
          <ExternalLink aria-hidden="true" className="size-4" />
          Open test checkout
        </a>
      )}

      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        {watch.kind === 'confirmed' ? (
          <Button onClick={onDone}>DONE</Button>
        ) : (
          <>
            <Button variant="ghost" onClick={onCancel}>
              CANCEL
            </Button>
            {ended && (
              <Button onClick={onNewPayment}>
                <RefreshCw aria-hidden="true" />
                NEW PAYMENT
              </Button>
            )}
          </>
        )}
      </div>
    </div>
  );
}

function CryptoCheckout({
  amountCents,
  sandbox,
  payCurrency,
  onCancel,
  onDone,
}: {
  amountCents: Cents;
  sandbox: boolean;
  payCurrency: string;
  onCancel: () => void;
  onDone: () => void;
}) {
  const { state, retry } = useCryptoDeposit(amountCents, payCurrency);
  if (state.kind === 'creating') {
    return (
      <div className="space-y-2">
        <PanelSpinner label="Creating your payment" text="CREATING PAYMENT..." />
        <div className="flex justify-end">
          <Button variant="ghost" onClick={onCancel}>
            CANCEL
          </Button>
        </div>
      </div>
    );
  }
  if (state.kind === 'failed') {
    return (
      <DepositProblemPanel
        title={state.problem.title}
        message={state.problem.message}
        actions={
          <>
            <Button variant="ghost" onClick={onCancel}>
              CANCEL
            </Button>
            <Button onClick={retry}>
              <RefreshCw aria-hidden="true" />
              TRY AGAIN
            </Button>
          </>
        }
      />
    );
  }
  return (
    <CryptoPaymentView
      key={state.payment.paymentId}
      payment={state.payment}
      amountCents={amountCents}
      sandbox={sandbox}
      onCancel={onCancel}
      onDone={onDone}
      onNewPayment={retry}
    />
  );
}

export interface CryptoPanelProps {
  amountCents: Cents;
  onCancel: () => void;
  onDone: () => void;
}

/**
 * The Cryptocurrency panel (docs/product.md#screens, docs/product.md#messages): CRYPTOCURRENCY
 * PAYMENTS UNAVAILABLE when crypto is off or its provider does not answer; otherwise the payment is
 * created and watched until it ends.
 */
export function CryptoPanel({ amountCents, onCancel, onDone }: CryptoPanelProps) {
  const config = usePaymentsConfig();
  const status = useCryptoStatus();

  if (config.isPending || status.isPending) {
    return <PanelSpinner label="Checking cryptocurrency payments" />;
  }
  if (!config.data?.crypto.enabled || !status.data?.isConfigured) {
    return (
      <DepositProblemPanel
        title={DEPOSIT_TITLES.cryptoUnavailable}
        message={DEPOSIT_MESSAGES.cryptoUnavailable}
        actions={
          <Button variant="ghost" onClick={onCancel}>
            CANCEL
          </Button>
        }
      />
    );
  }
  return (
    <CryptoCheckout
      amountCents={amountCents}
      sandbox={config.data.crypto.mode === 'sandbox'}
      payCurrency={config.data.crypto.payCurrency}
      onCancel={onCancel}
      onDone={onDone}
    />
  );
}
