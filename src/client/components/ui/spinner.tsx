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

/** The centred spinner that stands in for a whole page while it loads. */
export function PageSpinner() {
  return (
    <div className="flex min-h-[60dvh] items-center justify-center">
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
