import type { ReactNode } from 'react';
import { FlaskConical, SearchX, TriangleAlert } from 'lucide-react';
import {
  cryptoPaymentIdSchema,
  SANDBOX_CRYPTO_SIMULATIONS,
  type CryptoPaymentStatus,
  type SandboxCryptoPayment,
  type SandboxCryptoSimulation,
} from '#shared/contracts/payments.ts';
import { Badge, type BadgeVariant } from '#client/components/ui/badge.tsx';
import { Button } from '#client/components/ui/button.tsx';
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from '#client/components/ui/card.tsx';
import { EmptyState } from '#client/components/ui/empty-state.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { ApiError, serverText } from '#client/lib/api-client.ts';
import { cn } from '#client/lib/cn.ts';
import { formatDateTime, formatDollars } from '#client/lib/format.ts';
import { useSandboxCryptoPayment } from '../api/get-sandbox-crypto-payment.ts';
import { useSimulateSandboxCrypto } from '../api/simulate-sandbox-crypto.ts';
import { formatCryptoAmount } from '../lib/crypto-deposit.ts';

const SIMULATION_LABELS: Record<SandboxCryptoSimulation, string> = {
  finished: 'Simulate finished',
  confirmed: 'Simulate confirmed',
  partially_paid: 'Simulate partially paid',
  expired: 'Simulate expired',
  failed: 'Simulate failed',
};

function statusVariant(status: CryptoPaymentStatus): BadgeVariant {
  switch (status) {
    case 'finished':
    case 'confirmed':
    case 'sending':
      return 'success';
    case 'partially_paid':
      return 'warning';
    case 'expired':
    case 'failed':
    case 'refunded':
      return 'danger';
    case 'waiting':
    case 'confirming':
      return 'accent';
  }
}

const statusLabel = (status: CryptoPaymentStatus) => status.replaceAll('_', ' ');

function Fact({
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
    <div className={cn('min-w-0 space-y-0.5', className)}>
      <dt className="text-xs font-semibold tracking-wider text-slate-400 uppercase">{label}</dt>
      <dd className="font-medium break-all text-slate-100">{children}</dd>
    </div>
  );
}

function Simulator({ payment }: { payment: SandboxCryptoPayment }) {
  const simulate = useSimulateSandboxCrypto(payment.paymentId);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Simulate the blockchain</CardTitle>
        <CardDescription>
          Each button sets the payment&apos;s status as the real provider would report it. A
          finished or confirmed payment is credited to your balance.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        <div role="group" aria-label="Simulate a result" className="grid gap-3 sm:grid-cols-2">
          {SANDBOX_CRYPTO_SIMULATIONS.map((status) => (
            <Button
              key={status}
              variant={status === 'finished' || status === 'confirmed' ? 'primary' : 'outline'}
              disabled={simulate.isPending}
              onClick={() => simulate.mutate(status)}
            >
              {SIMULATION_LABELS[status]}
            </Button>
          ))}
        </div>
        {simulate.isSuccess && (
          <p role="status" className="text-sm text-emerald-300">
            The payment is now {statusLabel(simulate.data)}. The deposit dialog sees it at its next
            status check, within 15 seconds.
          </p>
        )}
        {simulate.isError && (
          <p role="alert" className="text-sm font-medium text-red-300">
            {simulate.error instanceof ApiError
              ? serverText(simulate.error)
              : 'Could not reach the server. Please try again.'}
          </p>
        )}
      </CardContent>
    </Card>
  );
}

function Checkout({ paymentId }: { paymentId: string }) {
  const query = useSandboxCryptoPayment(paymentId);
  if (query.isPending) {
    return (
      <div className="flex justify-center py-12">
        <Spinner label="Loading the test payment" />
      </div>
    );
  }
  if (query.isError) {
    return (
      <EmptyState
        icon={TriangleAlert}
        title="COULD NOT LOAD PAYMENT"
        description="Please refresh the page to try again."
      />
    );
  }
  const payment = query.data;
  if (!payment) return <NotFound />;
  const currency = payment.paymentCurrency.toUpperCase();
  return (
    <div className="grid gap-6 lg:grid-cols-2 lg:items-start">
      <Card highlight>
        <CardHeader>
          <CardTitle>Test payment</CardTitle>
        </CardHeader>
        <CardContent>
          <dl className="grid gap-4 sm:grid-cols-2">
            <Fact label="Payment ID">
              <span className="font-mono">{payment.paymentId}</span>
            </Fact>
            <Fact label="Status">
              <Badge variant={statusVariant(payment.status)}>{statusLabel(payment.status)}</Badge>
            </Fact>
            <Fact label="Deposit">{formatDollars(payment.priceAmount)}</Fact>
            <Fact label="Amount to send">
              <span className="font-mono">
                {formatCryptoAmount(payment.paymentAmount)} {currency}
              </span>
            </Fact>
            <Fact label="Address" className="sm:col-span-2">
              <span className="font-mono text-sm">{payment.paymentAddress}</span>
            </Fact>
            {payment.expirationTime && (
              <Fact label="Expires">{formatDateTime(payment.expirationTime)}</Fact>
            )}
          </dl>
        </CardContent>
      </Card>
      <Simulator payment={payment} />
    </div>
  );
}

function NotFound() {
  return (
    <EmptyState
      icon={SearchX}
      title="PAYMENT NOT FOUND"
      description="There is no test payment with this id in your account."
    />
  );
}

/**
 * The sandbox's stand-in for a crypto wallet (docs/payments.md): the player's own test payment,
 * with buttons that play the blockchain. Only sandbox payments exist here; with NOWPayments
 * configured the server answers 404 and the page says the payment is not found.
 */
export function SandboxCryptoCheckout({ paymentId }: { paymentId: string }) {
  return (
    <div className="space-y-6">
      <div
        role="note"
        className="flex items-start gap-3 rounded-xl border border-amber-400/60 bg-amber-400/10 p-4 text-amber-100"
      >
        <FlaskConical aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-amber-300" />
        <div className="space-y-1">
          <p className="font-display text-sm font-bold tracking-widest text-amber-300">
            TEST MODE — NO REAL MONEY
          </p>
          <p className="text-sm">
            This page stands in for a crypto wallet. Nothing here moves real coins; close the tab to
            return to the deposit dialog.
          </p>
        </div>
      </div>
      {cryptoPaymentIdSchema.safeParse(paymentId).success ? (
        <Checkout paymentId={paymentId} />
      ) : (
        <NotFound />
      )}
    </div>
  );
}
