import type { ComponentProps } from 'react';
import { cn } from '#client/lib/cn.ts';

export type BadgeVariant = 'accent' | 'neutral' | 'success' | 'warning' | 'danger';

const variantClasses: Record<BadgeVariant, string> = {
  accent: 'border-accent/50 bg-accent/10 text-accent',
  neutral: 'border-ink-600 bg-ink-800 text-slate-300',
  success: 'border-emerald-400/50 bg-emerald-400/10 text-emerald-300',
  warning: 'border-amber-400/50 bg-amber-400/10 text-amber-300',
  danger: 'border-red-400/50 bg-red-400/10 text-red-300',
};

export interface BadgeProps extends ComponentProps<'span'> {
  variant?: BadgeVariant;
  /** Shows the text as written rather than upper-cased. */
  asWritten?: boolean;
}

export function Badge({ variant = 'accent', asWritten = false, className, ...props }: BadgeProps) {
  return (
    <span
      className={cn(
        'inline-flex items-center gap-1 rounded-full border px-2.5 py-0.5 font-display text-[0.65rem] font-semibold tracking-wider',
        !asWritten && 'uppercase',
        variantClasses[variant],
        className,
      )}
      {...props}
    />
  );
}
