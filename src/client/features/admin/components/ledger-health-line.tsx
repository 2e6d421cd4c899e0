import { CircleCheck, LoaderCircle, RefreshCw, TriangleAlert } from 'lucide-react';
import { Button } from '#client/components/ui/button.tsx';
import { cn } from '#client/lib/cn.ts';
import { formatDateTime } from '#client/lib/format.ts';
import { useLedgerHealth } from '../api/get-ledger-health.ts';

/** The money core's invariant check (docs/money-and-ledger.md), at the top of the dashboard. */
export function LedgerHealthLine() {
  const health = useLedgerHealth();
  const data = health.data;
  const tone = !data
    ? 'border-ink-600 bg-ink-900/70 text-slate-200'
    : data.ok
      ? 'border-emerald-400/50 bg-emerald-400/10 text-emerald-100'
      : 'border-red-400/70 bg-red-950/60 text-red-50';

  return (
    <section
      aria-label="Ledger health"
      className={cn('mb-6 flex flex-col gap-3 rounded-xl border p-4 sm:flex-row', tone)}
    >
      <div role="status" className="min-w-0 flex-1 space-y-1 text-sm">
        {health.isPending ? (
          <p className="flex items-center gap-2">
            <LoaderCircle aria-hidden="true" className="size-5 shrink-0 animate-spin text-accent" />
            Checking the ledger…
          </p>
        ) : !data ? (
          <p className="flex items-center gap-2">
            <TriangleAlert aria-hidden="true" className="size-5 shrink-0 text-amber-300" />
            The ledger check could not be run.
          </p>
        ) : data.ok ? (
          <p className="flex flex-wrap items-center gap-x-2 gap-y-1">
            <CircleCheck aria-hidden="true" className="size-5 shrink-0 text-emerald-300" />
            <span className="font-display font-bold tracking-widest">LEDGER OK</span>
            <span className="text-emerald-100/80">
              Every invariant holds · checked {formatDateTime(data.checkedAt)}
            </span>
          </p>
        ) : (
          <>
            <p className="flex flex-wrap items-center gap-x-2 gap-y-1">
              <TriangleAlert aria-hidden="true" className="size-5 shrink-0 text-red-300" />
              <span className="font-display font-bold tracking-widest">LEDGER PROBLEMS</span>
              <span className="text-red-100/80">checked {formatDateTime(data.checkedAt)}</span>
            </p>
            <ul aria-label="Ledger problems" className="list-disc space-y-0.5 pl-10 break-words">
              {data.problems.map((problem) => (
                <li key={problem}>{problem}</li>
              ))}
            </ul>
          </>
        )}
      </div>
      <Button
        variant="ghost"
        size="sm"
        className="self-start"
        disabled={health.isFetching}
        onClick={() => void health.refetch()}
      >
        <RefreshCw aria-hidden="true" className={cn(health.isFetching && 'animate-spin')} />
        RECHECK
      </Button>
    </section>
  );
}
