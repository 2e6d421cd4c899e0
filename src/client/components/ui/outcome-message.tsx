import { useEffect, useRef, type ReactNode } from 'react';
import { CircleCheck, TriangleAlert } from 'lucide-react';
import { cn } from '#client/lib/cn.ts';

export interface OutcomeMessageProps {
  tone: 'success' | 'error';
  children: ReactNode;
  /** False for a message the page opens with: only one that replaces a control takes focus. */
  takeFocus?: boolean;
}

/**
 * The answer that takes the place of a form or button once it is used (a link sent, a link that
 * no longer works). The control that had the focus is gone, so the answer takes it: a keyboard
 * stays in place and a screen reader reads it out.
 */
export function OutcomeMessage({ tone, children, takeFocus = true }: OutcomeMessageProps) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (takeFocus) ref.current?.focus();
  }, [takeFocus]);
  const Icon = tone === 'success' ? CircleCheck : TriangleAlert;
  return (
    <div
      ref={ref}
      tabIndex={takeFocus ? -1 : undefined}
      className={cn(
        'flex gap-3 rounded-lg border p-4 text-sm',
        tone === 'success'
          ? 'border-emerald-400/50 bg-emerald-400/10 text-emerald-50'
          : 'border-red-400/50 bg-red-400/10 text-red-50',
      )}
    >
      <Icon
        aria-hidden="true"
        className={cn(
          'mt-0.5 size-5 shrink-0',
          tone === 'success' ? 'text-emerald-300' : 'text-red-300',
        )}
      />
      <div className="min-w-0 space-y-1">{children}</div>
    </div>
  );
}
