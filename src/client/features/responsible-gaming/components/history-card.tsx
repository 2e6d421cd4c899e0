import { useId } from 'react';
import {
  LIMIT_NAMES,
  type ResponsibleGaming,
  type ResponsibleGamingChangeView,
} from '#shared/contracts/responsible-gaming.ts';
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from '#client/components/ui/card.tsx';
import { formatDateTime, formatDollars } from '#client/lib/format.ts';

/** One change in words: "Daily limit set to $50.00", "Time-out until …". */
export function describeChange(change: ResponsibleGamingChangeView): string {
  const limit = change.limit ? `${LIMIT_NAMES[change.limit]} limit` : '';
  const amount = change.amount === null ? null : formatDollars(change.amount);
  switch (change.kind) {
    case 'limit_set':
      return amount ? `${limit} set to ${amount}` : `${limit} removed`;
    case 'limit_raise_requested':
      return amount
        ? `${limit} raise to ${amount} asked for, in force from ${formatDateTime(change.effectiveAt)}`
        : `${limit} removal asked for, in force from ${formatDateTime(change.effectiveAt)}`;
    case 'time_out':
      return `Time-out until ${formatDateTime(change.endsAt ?? change.effectiveAt)}`;
    case 'self_exclusion':
      return `Self-exclusion until ${formatDateTime(change.endsAt ?? change.effectiveAt)}`;
  }
}

/** Every change the player made to their limits and breaks, newest first. */
export function HistoryCard({ rules }: { rules: ResponsibleGaming }) {
  const titleId = useId();
  return (
    <Card aria-labelledby={titleId}>
      <CardHeader>
        <CardTitle id={titleId}>Your history</CardTitle>
        <CardDescription>The limits you set and the breaks you took.</CardDescription>
      </CardHeader>
      <CardContent>
        {rules.history.length === 0 ? (
          <p className="text-sm text-slate-300">You have not set a limit or taken a break yet.</p>
        ) : (
          <ol className="divide-y divide-ink-700">
            {rules.history.map((change) => (
              <li key={change.id} className="flex flex-wrap justify-between gap-x-4 py-2 text-sm">
                <span className="text-slate-100">{describeChange(change)}</span>
                <time dateTime={change.createdAt} className="text-slate-400">
                  {formatDateTime(change.createdAt)}
                </time>
              </li>
            ))}
          </ol>
        )}
      </CardContent>
    </Card>
  );
}
