import { useId, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Download, Landmark, TriangleAlert } from 'lucide-react';
import type { TaxReport } from '#shared/contracts/tax-report.ts';
import { Badge } from '#client/components/ui/badge.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { EmptyState } from '#client/components/ui/empty-state.tsx';
import { Label } from '#client/components/ui/label.tsx';
import { NativeSelect } from '#client/components/ui/native-select.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { formatDollars } from '#client/lib/format.ts';
import { auditLogQueryKey } from '../api/get-audit-log.ts';
import { taxReportCsvUrl, useTaxReport } from '../api/get-tax-report.ts';

/** The years offered: this one (UTC, as the report counts) and the six before it. */
export const TAX_YEARS_SHOWN = 7;

export function taxYearsUpTo(currentYear: number): number[] {
  return Array.from({ length: TAX_YEARS_SHOWN }, (_, index) => currentYear - index);
}

const headerCell = 'px-3 py-2 text-left font-semibold tracking-wider whitespace-nowrap';
const numberCell = 'px-3 py-2 text-right tabular-nums whitespace-nowrap';

function TaxTable({ report }: { report: TaxReport }) {
  const captionId = useId();
  return (
    // A table wider than a phone scrolls inside its own region, which the keyboard can reach.
    <div
      role="region"
      aria-labelledby={captionId}
      tabIndex={0}
      className="overflow-x-auto rounded-lg border border-ink-700 focus-visible:outline-2 focus-visible:outline-accent"
    >
      <table className="w-full min-w-[44rem] text-sm text-slate-200">
        <caption id={captionId} className="px-3 py-2 text-left text-sm text-slate-300">
          Players with net winnings of {formatDollars(report.threshold)} or more in {report.year}
        </caption>
        <thead className="bg-ink-900 text-[0.7rem] text-slate-400 uppercase">
          <tr>
            <th scope="col" className={headerCell}>
              Player
            </th>
            <th scope="col" className={headerCell}>
              E-mail
            </th>
            <th scope="col" className={`${headerCell} text-right`}>
              Prizes
            </th>
            <th scope="col" className={`${headerCell} text-right`}>
              Credited
            </th>
            <th scope="col" className={`${headerCell} text-right`}>
              Stakes
            </th>
            <th scope="col" className={`${headerCell} text-right`}>
              Net winnings
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-ink-700">
          {report.players.map((row) => (
            <tr key={row.userId}>
              <th scope="row" className="px-3 py-2 text-left font-medium break-all text-white">
                {row.username}
                {row.accountClosed && (
                  <Badge variant="neutral" className="ml-2">
                    Account closed
                  </Badge>
                )}
                <span className="block text-xs font-normal text-slate-400">User #{row.userId}</span>
              </th>
              <td className="px-3 py-2 break-all">
                {row.email ?? <span className="text-slate-400">Not provided</span>}
              </td>
              <td className={numberCell}>{row.prizes}</td>
              <td className={numberCell}>{formatDollars(row.prizesCredited)}</td>
              <td className={numberCell}>{formatDollars(row.stakes)}</td>
              <td className={`${numberCell} font-semibold text-white`}>
                {formatDollars(row.netWinnings)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * The tax report (docs/responsible-play.md): a calendar year's players whose prizes credited, less
 * the stakes of those challenges, reach the operator's threshold, and the same list as a CSV
 * download.
 */
export function TaxReportTab() {
  const selectId = useId();
  const [years] = useState(() => taxYearsUpTo(new Date().getUTCFullYear()));
  const [year, setYear] = useState(years[0] ?? new Date().getUTCFullYear());
  const report = useTaxReport(year);
  const queryClient = useQueryClient();

  return (
    <div className="space-y-5">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div className="flex flex-col gap-1.5 sm:flex-row sm:items-center sm:gap-3">
          <Label htmlFor={selectId} className="shrink-0">
            Tax year
          </Label>
          <div className="sm:w-36">
            <NativeSelect
              id={selectId}
              value={year}
              onChange={(event) => setYear(Number(event.currentTarget.value))}
            >
              {years.map((option) => (
                <option key={option} value={option}>
                  {option}
                </option>
              ))}
            </NativeSelect>
          </div>
        </div>
        <Button asChild variant="outline" size="sm">
          <a
            href={taxReportCsvUrl(year)}
            download
            // The download is recorded in the audit log: it shows there next time it is opened.
            onClick={() => void queryClient.invalidateQueries({ queryKey: auditLogQueryKey })}
          >
            <Download aria-hidden="true" />
            DOWNLOAD CSV
          </a>
        </Button>
      </div>
      <p className="text-sm text-slate-400">
        Net winnings are the prizes credited to a player in the calendar year (UTC) less their
        stakes in those same challenges.
        {report.data && ` Listed from ${formatDollars(report.data.threshold)}.`}
      </p>
      {report.isPending ? (
        <div className="flex justify-center py-12">
          <Spinner label="Loading the tax report" />
        </div>
      ) : report.isError ? (
        <EmptyState
          icon={TriangleAlert}
          title="COULD NOT LOAD THE TAX REPORT"
          description="Please refresh the page to try again."
        />
      ) : report.data.players.length === 0 ? (
        <EmptyState
          icon={Landmark}
          title="NO PLAYERS AT THE THRESHOLD"
          description={`No player's net winnings in ${year} reached ${formatDollars(report.data.threshold)}.`}
        />
      ) : (
        <TaxTable report={report.data} />
      )}
    </div>
  );
}
