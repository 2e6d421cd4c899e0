import { ShieldAlert } from 'lucide-react';
import { suspensionMessage, type Suspension } from '#shared/suspension.ts';

/**
 * Under the top bar while an admin has suspended the account (DESIGN §10): the reason and the
 * end, and what the player can still do, so that a refused deposit or challenge is no surprise.
 */
export function SuspensionBanner({ suspension }: { suspension: Suspension }) {
  return (
    <section
      aria-label="Account suspended"
      className="border-b border-amber-400/40 bg-amber-400/10"
    >
      <div className="mx-auto flex max-w-6xl items-start gap-3 px-4 py-3 text-sm text-amber-50 sm:px-6">
        <ShieldAlert aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-amber-300" />
        <div className="space-y-1">
          <p className="font-display text-xs font-bold tracking-widest text-amber-300">
            ACCOUNT SUSPENDED
          </p>
          <p>{suspensionMessage(suspension)}</p>
          <p className="text-amber-100/80">
            You can still sign in, follow your matches and withdraw your available balance.
            Deposits, new challenges and accepting challenges are paused.
          </p>
        </div>
      </div>
    </section>
  );
}
