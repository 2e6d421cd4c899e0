import { useId, useMemo, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Download, TriangleAlert } from 'lucide-react';
import {
  EXPORT_NAMES,
  INSIGHTS_MESSAGES,
  INSIGHTS_RANGE_DAYS_MAX,
  addDays,
  dayOf,
  daysInRange,
  type ExportName,
  type Overview,
} from '#shared/contracts/insights.ts';
import { Button } from '#client/components/ui/button.tsx';
import { EmptyState } from '#client/components/ui/empty-state.tsx';
import { Input } from '#client/components/ui/input.tsx';
import { Label } from '#client/components/ui/label.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { cn } from '#client/lib/cn.ts';
import { formatDollars } from '#client/lib/format.ts';
import { auditLogQueryKey } from '../api/get-audit-log.ts';
import {
  exportCsvFileName,
  exportCsvUrl,
  useOverview,
  type DayRange,
} from '../api/get-overview.ts';
import { DailyChart, type ChartSeries } from './daily-chart.tsx';

/** The quick ranges: the last 7, 30 or 90 days up to today (UTC), as the server counts days. */
export const PRESET_DAYS = [7, 30, 90] as const;
type Preset = (typeof PRESET_DAYS)[number] | 'custom';

export function lastDays(days: number, today: string): DayRange {
  return { from: addDays(today, 1 - days), to: today };
}

const percent = (fraction: number) => `${(fraction * 100).toFixed(1)}%`;
const count = (value: number) => String(value);

const TILES: Array<{
  key: keyof Omit<Overview, 'from' | 'to' | 'daily' | 'debts'>;
  label: string;
}> = [
  { key: 'stakesVolume', label: 'Stakes volume' },
  { key: 'feesEarned', label: 'Fees earned' },
  { key: 'deposits', label: 'Deposits' },
  { key: 'payouts', label: 'Payouts' },
  { key: 'netHousePosition', label: 'Net house position' },
  { key: 'activePlayers', label: 'Active players' },
  { key: 'registrations', label: 'Registrations' },
  { key: 'completedChallenges', label: 'Completed challenges' },
  { key: 'disputeRate', label: 'Dispute rate' },
];

function tileValue(overview: Overview, key: (typeof TILES)[number]['key']): string {
  const value = overview[key];
  if (key === 'disputeRate') return percent(value);
  if (key === 'activePlayers' || key === 'registrations' || key === 'completedChallenges') {
    return count(value);
  }
  return formatDollars(value);
}

const EXPORT_LABELS: Record<ExportName, string> = {
  transfers: 'Ledger transfers',
  payments: 'Payments',
  payouts: 'Payouts',
  chargebacks: 'Card disputes',
  tax: 'Tax list',
};

function CustomRange({ range, onApply }: { range: DayRange; onApply: (range: DayRange) => void }) {
  const fromId = useId();
  const toId = useId();
  const errorId = useId();
  const [from, setFrom] = useState(range.from);
  const [to, setTo] = useState(range.to);
  const [error, setError] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!from || !to || from > to || daysInRange(from, to) > INSIGHTS_RANGE_DAYS_MAX) {
      setError(INSIGHTS_MESSAGES.rangeInvalid);
      return;
    }
    setError(null);
    onApply({ from, to });
  };
  return (
    <form
      onSubmit={submit}
      aria-label="Custom range"
      className="flex flex-col gap-3 sm:flex-row sm:items-end"
    >
      <div className="space-y-1.5">
        <Label htmlFor={fromId}>From</Label>
        <Input
          id={fromId}
          type="date"
          value={from}
          onChange={(event) => setFrom(event.currentTarget.value)}
          aria-describedby={error ? errorId : undefined}
          aria-invalid={error ? true : undefined}
        />
      </div>
      <div className="space-y-1.5">
        <Label htmlFor={toId}>To</Label>
        <Input
          id={toId}
          type="date"
          value={to}
          onChange={(event) => setTo(event.currentTarget.value)}
          aria-describedby={error ? errorId : undefined}
          aria-invalid={error ? true : undefined}
        />
      </div>
      <Button type="submit" variant="outline">
        APPLY
      </Button>
      {error && (
        <p id={errorId} role="alert" className="text-sm text-red-300">
          {error}
        </p>
      )}
    </form>
  );
}

function Charts({ overview }: { overview: Overview }) {
  const days = useMemo(() => overview.daily.map((day) => day.date), [overview]);
  const money = useMemo<ChartSeries[]>(
    () => [
      {
        label: 'Stakes volume',
        color: '#22d3ee',
        values: overview.daily.map((d) => d.stakesVolume),
      },
      { label: 'Deposits', color: '#34d399', values: overview.daily.map((d) => d.deposits) },
      { label: 'Payouts', color: '#fbbf24', values: overview.daily.map((d) => d.payouts) },
      { label: 'Fees earned', color: '#c084fc', values: overview.daily.map((d) => d.feesEarned) },
    ],
    [overview],
  );
  const players = useMemo<ChartSeries[]>(
    () => [
      {
        label: 'Active players',
        color: '#22d3ee',
        values: overview.daily.map((d) => d.activePlayers),
      },
      {
        label: 'Registrations',
        color: '#34d399',
        values: overview.daily.map((d) => d.registrations),
      },
      {
        label: 'Completed challenges',
        color: '#fbbf24',
        values: overview.daily.map((d) => d.completedChallenges),
      },
    ],
    [overview],
  );
  const disputes = useMemo<ChartSeries[]>(
    () => [
      { label: 'Dispute rate', color: '#f87171', values: overview.daily.map((d) => d.disputeRate) },
    ],
    [overview],
  );
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <DailyChart title="Money by day" days={days} series={money} format={formatDollars} />
      <DailyChart
        title="Players and challenges by day"
        days={days}
        series={players}
        format={count}
      />
      <DailyChart title="Dispute rate by day" days={days} series={disputes} format={percent} />
    </div>
  );
}

/**
 * OVERVIEW (docs/operator-tools.md): the money and the players of a range of days at a glance, with
 * daily charts, and the range's CSV exports for the accountant.
 */
export function OverviewTab() {
  const [today] = useState(() => dayOf(new Date()));
  const [preset, setPreset] = useState<Preset>(30);
  const [range, setRange] = useState<DayRange>(() => lastDays(30, today));
  const overview = useOverview(range);
  const queryClient = useQueryClient();

  const choose = (next: Preset) => {
    setPreset(next);
    if (next !== 'custom') setRange(lastDays(next, today));
  };

  return (
    <div className="space-y-6">
      <div className="space-y-3">
        <div role="group" aria-label="Date range" className="flex flex-wrap gap-2">
          {PRESET_DAYS.map((days) => (
            <Button
              key={days}
              size="sm"
              variant={preset === days ? 'primary' : 'outline'}
              aria-pressed={preset === days}
              onClick={() => choose(days)}
            >
              LAST {days} DAYS
            </Button>
          ))}
          <Button
            size="sm"
            variant={preset === 'custom' ? 'primary' : 'outline'}
            aria-pressed={preset === 'custom'}
            onClick={() => choose('custom')}
          >
            CUSTOM
          </Button>
        </div>
        {preset === 'custom' && <CustomRange range={range} onApply={setRange} />}
        <p className="text-sm text-slate-400">
          {range.from} to {range.to} (UTC days, both included)
        </p>
      </div>

      {overview.isPending ? (
        <div className="flex justify-center py-12">
          <Spinner label="Loading the overview" />
        </div>
      ) : overview.isError ? (
        <EmptyState
          icon={TriangleAlert}
          title="COULD NOT LOAD THE OVERVIEW"
          description="Please refresh the page to try again."
        />
      ) : (
        <>
          <dl
            aria-label="Key figures"
            className={cn(
              'grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5',
              overview.isPlaceholderData && 'opacity-60',
            )}
          >
            {TILES.map((tile) => (
              <div key={tile.key} className="rounded-lg border border-ink-700 bg-ink-900/60 p-3">
                <dt className="text-[0.7rem] font-semibold tracking-wider text-slate-400 uppercase">
                  {tile.label}
                </dt>
                <dd className="mt-1 font-display text-lg font-bold text-white tabular-nums">
                  {tileValue(overview.data, tile.key)}
                </dd>
              </div>
            ))}
            {/* What players owe after chargebacks is of today, whatever the range. */}
            <div className="rounded-lg border border-ink-700 bg-ink-900/60 p-3">
              <dt className="text-[0.7rem] font-semibold tracking-wider text-slate-400 uppercase">
                Debts owed today
              </dt>
              <dd className="mt-1 font-display text-lg font-bold text-white tabular-nums">
                {formatDollars(overview.data.debts.total)}
                <span className="ml-2 font-sans text-xs font-normal text-slate-400">
                  {overview.data.debts.players} player(s)
                </span>
              </dd>
            </div>
          </dl>
          <Charts overview={overview.data} />
        </>
      )}

      <section aria-labelledby="exports-title" className="space-y-3">
        <h2 id="exports-title" className="font-display text-sm font-bold tracking-wider text-white">
          CSV EXPORTS FOR THIS RANGE
        </h2>
        <div className="flex flex-wrap gap-2">
          {EXPORT_NAMES.map((name) => (
            <Button key={name} asChild variant="outline" size="sm">
              <a
                href={exportCsvUrl(name, range)}
                download={exportCsvFileName(name, range)}
                // The download is recorded in the audit log: it shows there next time it opens.
                onClick={() => void queryClient.invalidateQueries({ queryKey: auditLogQueryKey })}
              >
                <Download aria-hidden="true" />
                {EXPORT_LABELS[name].toUpperCase()}
              </a>
            </Button>
          ))}
        </div>
      </section>
    </div>
  );
}
