import type { ReactNode } from 'react';
import type { Ban } from 'lucide-react';

/** A status block on the challenge page: what is going on and what the viewer can do. */
export function Notice({
  icon: Icon,
  title,
  tone = 'neutral',
  children,
}: {
  icon: typeof Ban;
  title: string;
  tone?: 'neutral' | 'warning';
  children?: ReactNode;
}) {
  const toneClasses =
    tone === 'warning'
      ? 'border-amber-400/50 bg-amber-400/10 text-amber-50'
      : 'border-ink-600 bg-ink-900/60 text-slate-200';
  return (
    <div role="status" className={`rounded-xl border p-5 ${toneClasses}`}>
      <p className="flex items-center gap-2 font-display text-sm font-bold tracking-widest">
        <Icon aria-hidden="true" className="size-5 shrink-0" />
        {title}
      </p>
      {children && <div className="mt-2 space-y-1 text-sm">{children}</div>}
    </div>
  );
}
