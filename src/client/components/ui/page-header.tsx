import type { ReactNode } from 'react';

export interface PageHeaderProps {
  eyebrow?: string;
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
}

/** The heading block every signed-in page opens with. */
export function PageHeader({ eyebrow, title, description, actions }: PageHeaderProps) {
  return (
    <div className="mb-8 flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
      <div className="min-w-0 space-y-2">
        {eyebrow && (
          <p className="font-display text-xs font-semibold tracking-[0.3em] text-accent">
            {eyebrow}
          </p>
        )}
        {/* Focusable from script only: where focus lands when its control is gone for good. */}
        <h1
          tabIndex={-1}
          className="font-display text-2xl font-black tracking-wider break-words text-white sm:text-3xl"
        >
          {title}
        </h1>
        {description && <p className="max-w-2xl text-slate-300">{description}</p>}
      </div>
      {actions && <div className="flex shrink-0 flex-wrap gap-3">{actions}</div>}
    </div>
  );
}
