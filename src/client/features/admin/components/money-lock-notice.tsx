import { Unlock } from 'lucide-react';
import type { MoneyLock } from '#shared/money-lock.ts';
import { Button } from '#client/components/ui/button.tsx';
import { formatDateTime, formatDollars } from '#client/lib/format.ts';
import { useLiftMoneyLock } from '../api/lift-money-lock.ts';

/**
 * A card dispute's lock on the player's money, on their admin page (docs/chargebacks.md): why,
 * since when, what they owe, and LIFT LOCK once they owe nothing (the server says why not before).
 */
export function MoneyLockNotice(props: {
  userId: number;
  lock: MoneyLock;
  debt: number;
  closed: boolean;
}) {
  const lift = useLiftMoneyLock();
  return (
    <div className="flex flex-wrap items-center gap-3 text-sm text-slate-300">
      <p>
        Money locked since {formatDateTime(props.lock.since)}: {props.lock.reason}.{' '}
        {props.debt > 0 ? `Owes ${formatDollars(props.debt)}.` : 'Owes nothing.'}
      </p>
      {!props.closed && (
        <Button
          variant="outline"
          size="sm"
          disabled={lift.isPending}
          onClick={() => lift.mutate(props.userId)}
        >
          <Unlock aria-hidden="true" />
          {lift.isPending ? 'LIFTING...' : 'LIFT LOCK'}
        </Button>
      )}
    </div>
  );
}
