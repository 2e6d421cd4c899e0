import type { ReactNode } from 'react';
import { cn } from '#client/lib/cn.ts';

/** One labelled value in a dashboard row or dialog. */
export function Fact({
  label,
  wide = false,
  children,
}: {
  label: string;
  /** Takes the whole row: for free text that may run long. */
  wide?: boolean;
  children: ReactNode;
}) {
  return (
    <div className={cn('min-w-0', wide && 'col-span-full')}>
      <dt className="text-[0.7rem] font-semibold tracking-wider text-slate-400 uppercase">
        {label}
      </dt>
      <dd className="text-sm font-medium break-words text-slate-100">{children}</dd>
    </div>
  );
}

/** The quiet text for a value the record does not have. */
export function Missing({ children = 'N/A' }: { children?: ReactNode }) {
  return <span className="font-normal text-slate-400">{children}</span>;
}

export const rowClasses = 'space-y-4 rounded-lg border border-ink-700 bg-ink-900/60 p-4 sm:p-5';
