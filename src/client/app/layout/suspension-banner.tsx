import { Coffee, Lock, ShieldAlert, type LucideIcon } from 'lucide-react';
import { moneyLockMessage, type MoneyLock } from '#shared/money-lock.ts';
import { playBreakMessage, type PlayBreak } from '#shared/play-breaks.ts';
import { suspensionMessage, type Suspension } from '#shared/suspension.ts';
import { formatDollars } from '#client/lib/format.ts';

const STILL_ALLOWED =
  'You can still sign in, follow your matches and withdraw your available balance. Deposits, ' +
  'new challenges and accepting challenges are paused.';

/** A strip under the top bar that says why cash play is paused and what still works. */
function PausedBanner(props: {
  label: string;
  icon: LucideIcon;
  message: string;
  stillAllowed?: string;
}) {
  const Icon = props.icon;
  return (
    <section aria-label={props.label} className="border-b border-amber-400/40 bg-amber-400/10">
      <div className="mx-auto flex max-w-6xl items-start gap-3 px-4 py-3 text-sm text-amber-50 sm:px-6">
        <Icon aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-amber-300" />
        <div className="space-y-1">
          <p className="font-display text-xs font-bold tracking-widest text-amber-300">
            {props.label.toUpperCase()}
          </p>
          <p>{props.message}</p>
          <p className="text-amber-100/80">{props.stillAllowed ?? STILL_ALLOWED}</p>
        </div>
      </div>
    </section>
  );
}

/**
 * Under the top bar while an admin has suspended the account (docs/fair-play.md): the reason and
 * the end, and what the player can still do, so that a refused deposit or challenge is no surprise.
 */
export function SuspensionBanner({ suspension }: { suspension: Suspension }) {
  return (
    <PausedBanner
      label="Account suspended"
      icon={ShieldAlert}
      message={suspensionMessage(suspension)}
    />
  );
}

/**
 * Under the top bar during the player's own time-out or self-exclusion (docs/responsible-play.md).
 */
export function PlayBreakBanner({ playBreak }: { playBreak: PlayBreak }) {
  return (
    <PausedBanner
      label={playBreak.kind === 'time_out' ? 'Time-out' : 'Self-exclusion'}
      icon={Coffee}
      message={playBreakMessage(playBreak)}
    />
  );
}

/**
 * Under the top bar while a disputed card payment locks the player's money (docs/chargebacks.md):
 * why, what they owe, and how to repay.
 */
export function MoneyLockBanner({ lock, debt }: { lock: MoneyLock; debt: number }) {
  return (
    <PausedBanner
      label="Money locked"
      icon={Lock}
      message={moneyLockMessage(lock)}
      stillAllowed={
        debt > 0
          ? `You owe ${formatDollars(debt)}. Any money that reaches your account pays it first; a ` +
            'crypto deposit repays it.'
          : 'You owe nothing. Our team will lift the lock once the dispute is settled.'
      }
    />
  );
}
