import { CircleCheck } from 'lucide-react';
import { Button } from '#client/components/ui/button.tsx';
import { DEPOSIT_TITLES, depositSuccessMessage } from '../lib/deposit-messages.ts';

/** The end of a deposit, kept in the dialog: the toast saying the same may be replaced. */
export function DepositSuccess({ amount, onDone }: { amount: number; onDone: () => void }) {
  return (
    <div className="flex flex-col items-center gap-4 py-4 text-center">
      <span className="flex size-14 items-center justify-center rounded-full border border-emerald-400/50 bg-emerald-400/10 text-emerald-300">
        <CircleCheck aria-hidden="true" className="size-7" />
      </span>
      <div role="status" className="space-y-1">
        <p className="font-display text-lg font-bold tracking-wider text-white">
          {DEPOSIT_TITLES.success}
        </p>
        <p className="text-sm text-slate-300">{depositSuccessMessage(amount)}</p>
      </div>
      <Button onClick={onDone} className="w-full sm:w-auto">
        DONE
      </Button>
    </div>
  );
}
