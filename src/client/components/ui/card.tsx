import type { ComponentProps } from 'react';
import { cn } from '#client/lib/cn.ts';

export interface CardProps extends ComponentProps<'section'> {
  /** An accent border, for the one card a page wants the eye to land on. */
  highlight?: boolean;
}

/** The card surface, for elements that need another tag (an <article> in a list, say). */
export function cardClasses(highlight = false): string {
  return cn(
    'rounded-xl border bg-ink-850/85 shadow-[0_12px_40px_-20px_rgb(0_0_0/0.8)] backdrop-blur-sm',
    highlight ? 'border-accent/40' : 'border-ink-700',
  );
}

export function Card({ highlight = false, className, ...props }: CardProps) {
  return <section className={cn(cardClasses(highlight), className)} {...props} />;
}

export function CardHeader({ className, ...props }: ComponentProps<'div'>) {
  return (
    <div className={cn('flex flex-col gap-1.5 p-5 pb-3 sm:p-6 sm:pb-3', className)} {...props} />
  );
}

export function CardTitle({ className, ...props }: ComponentProps<'h2'>) {
  return (
    <h2
      className={cn(
        'font-display text-sm font-bold tracking-widest text-accent uppercase',
        className,
      )}
      {...props}
    />
  );
}

export function CardDescription({ className, ...props }: ComponentProps<'p'>) {
  return <p className={cn('text-sm text-slate-400', className)} {...props} />;
}

export function CardContent({ className, ...props }: ComponentProps<'div'>) {
  return <div className={cn('p-5 pt-2 sm:p-6 sm:pt-2', className)} {...props} />;
}
