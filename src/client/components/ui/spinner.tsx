import { LoaderCircle } from 'lucide-react';
import { cn } from '#client/lib/cn.ts';

export interface SpinnerProps {
  label?: string;
  size?: 'md' | 'lg';
  className?: string;
}

export function Spinner({ label = 'Loading', size = 'md', className }: SpinnerProps) {
  return (
    <div role="status" aria-label={label} className={cn('inline-flex text-accent', className)}>
      <LoaderCircle
        aria-hidden="true"
        className={cn('animate-spin', size === 'lg' ? 'size-12' : 'size-8')}
      />
    </div>
  );
}

/**
 * The centred spinner that stands in for a whole page while it loads. A screen tall, so that the
 * footer starts below the fold: a shorter stand-in left it on screen, and the page that replaced
 * it pushed it down (a layout shift Lighthouse counted on /players and /tournaments).
 */
export function PageSpinner() {
  return (
    <div className="flex min-h-dvh items-center justify-center">
      <Spinner size="lg" />
    </div>
  );
}

/**
 * The centred spinner that stands in for the whole screen, shell included, while the session
 * loads: the top bar and the footer appear with the page, so nothing on screen is pushed aside.
 */
export function ScreenSpinner() {
  return (
    <div className="flex min-h-dvh items-center justify-center">
      <Spinner size="lg" />
    </div>
  );
}
