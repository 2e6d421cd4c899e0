import type { ReactNode } from 'react';
import type { LucideIcon } from 'lucide-react';

export interface EmptyStateProps {
  icon: LucideIcon;
  /** One of the SPEC's upper-case empty texts, shown as written. */
  title: string;
  description?: string;
  action?: ReactNode;
}

export function EmptyState({ icon: Icon, title, description, action }: EmptyStateProps) {
  return (
    <div className="flex flex-col items-center gap-3 rounded-xl border border-dashed border-ink-600 bg-ink-900/50 px-6 py-12 text-center">
      <span className="flex size-14 items-center justify-center rounded-full border border-accent/30 bg-accent/10 text-accent">
        <Icon aria-hidden="true" className="size-7" />
      </span>
      <p className="font-display text-sm font-bold tracking-widest text-slate-100">{title}</p>
      {description && <p className="max-w-sm text-sm text-slate-400">{description}</p>}
      {action && <div className="mt-2">{action}</div>}
    </div>
  );
}
