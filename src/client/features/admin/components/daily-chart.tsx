import { useEffect, useId, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export interface ChartSeries {
  label: string;
  /** A colour that reads on the dark card, and the swatch beside its name. */
  color: string;
  values: number[];
}

const AXIS_COLOR = '#94a3b8';
const GRID_COLOR = 'rgba(148, 163, 184, 0.15)';
const HEIGHT_PX = 220;

/** A day `YYYY-MM-DD` as the seconds since 1970 that uPlot's time scale reads. */
const secondsOf = (day: string) => Date.parse(`${day}T00:00:00Z`) / 1000;

/**
 * A line chart of daily figures drawn by uPlot on a canvas (decision record 0018), and beside it
 * the same figures as a table: the canvas is a picture to assistive technology, the table is
 * what a screen reader reads, and anyone may open it.
 */
export function DailyChart({
  title,
  days,
  series,
  format,
}: {
  title: string;
  days: string[];
  series: ChartSeries[];
  format: (value: number) => string;
}) {
  const canvasHost = useRef<HTMLDivElement>(null);
  const titleId = useId();

  useEffect(() => {
    const host = canvasHost.current;
    if (!host) return;
    const plot = new uPlot(
      {
        width: host.clientWidth,
        height: HEIGHT_PX,
        legend: { show: false },
        cursor: { drag: { x: false, y: false } },
        scales: { x: { time: true } },
        axes: [
          { stroke: AXIS_COLOR, grid: { stroke: GRID_COLOR }, ticks: { stroke: GRID_COLOR } },
          {
            stroke: AXIS_COLOR,
            grid: { stroke: GRID_COLOR },
            ticks: { stroke: GRID_COLOR },
            size: 64,
            values: (_plot, ticks) => ticks.map(format),
          },
        ],
        series: [
          {},
          ...series.map((line) => ({
            label: line.label,
            stroke: line.color,
            width: 2,
            points: { show: days.length <= 31 },
          })),
        ],
      },
      [days.map(secondsOf), ...series.map((line) => line.values)],
      host,
    );
    const resize = new ResizeObserver(() => {
      plot.setSize({ width: host.clientWidth, height: HEIGHT_PX });
    });
    resize.observe(host);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [days, series, format]);

  return (
    <figure
      aria-labelledby={titleId}
      className="min-w-0 space-y-3 rounded-lg border border-ink-700 bg-ink-900/60 p-4"
    >
      <figcaption id={titleId} className="font-display text-sm font-bold tracking-wider text-white">
        {title}
      </figcaption>
      <ul className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-300">
        {series.map((line) => (
          <li key={line.label} className="flex items-center gap-1.5">
            <span
              aria-hidden="true"
              className="inline-block size-2.5 rounded-full"
              style={{ backgroundColor: line.color }}
            />
            {line.label}
          </li>
        ))}
      </ul>
      <div ref={canvasHost} aria-hidden="true" className="w-full" />
      <details className="text-sm text-slate-200">
        <summary className="cursor-pointer text-slate-300 hover:text-white">
          Table view: {title}
        </summary>
        <div
          role="region"
          aria-label={`${title}, by day`}
          tabIndex={0}
          className="mt-2 max-h-72 overflow-auto rounded-lg border border-ink-700 focus-visible:outline-2 focus-visible:outline-accent"
        >
          <table className="w-full text-xs">
            <caption className="sr-only">{title}, one row per day (UTC)</caption>
            <thead className="sticky top-0 bg-ink-900 text-slate-400 uppercase">
              <tr>
                <th scope="col" className="px-3 py-2 text-left font-semibold">
                  Day
                </th>
                {series.map((line) => (
                  <th key={line.label} scope="col" className="px-3 py-2 text-right font-semibold">
                    {line.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-ink-700">
              {days.map((day, index) => (
                <tr key={day}>
                  <th scope="row" className="px-3 py-1.5 text-left font-medium whitespace-nowrap">
                    {day}
                  </th>
                  {series.map((line) => (
                    <td
                      key={line.label}
                      className="px-3 py-1.5 text-right tabular-nums whitespace-nowrap"
                    >
                      {format(line.values[index] ?? 0)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
