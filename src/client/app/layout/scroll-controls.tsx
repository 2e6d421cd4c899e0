import { ArrowUpToLine, ChevronDown, ChevronUp } from 'lucide-react';
import { Button } from '#client/components/ui/button.tsx';
import { cn } from '#client/lib/cn.ts';
import { SCROLL_STEP_PX } from '#client/lib/ui-constants.ts';
import { useScrollMetrics } from './use-scroll-metrics.ts';

/** Smooth scrolling, unless the reader has asked the system for reduced motion. */
function scrollBehavior(): ScrollBehavior {
  return window.matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth';
}

/**
 * The page shell's scroll aids (SPEC §1): a thin progress bar on the right edge, step buttons
 * when the page is long enough to need them, and BACK TO TOP past the halfway point.
 *
 * On a phone a floating column would sit on top of whatever is at the bottom right of the screen
 * (the home tabs, a card's button), so there the buttons live in a slim bottom bar instead, and a
 * spacer of the same height lets the end of the page scroll clear of it.
 */
export function ScrollControls() {
  const { progressPercent, overflows, pastHalf } = useScrollMetrics();
  const shown = overflows || pastHalf;
  return (
    <>
      <progress className="scroll-progress" aria-hidden="true" max={100} value={progressPercent} />
      {shown && <div aria-hidden="true" className="h-14 sm:hidden" />}
      {shown && (
        <div
          className={cn(
            'fixed inset-x-0 bottom-0 z-40 flex h-14 items-center justify-end gap-2 border-t border-ink-700/80 bg-ink-950/90 px-4 backdrop-blur-md',
            'sm:inset-x-auto sm:right-6 sm:bottom-6 sm:h-auto sm:flex-col sm:items-end sm:border-0 sm:bg-transparent sm:p-0 sm:backdrop-blur-none',
          )}
        >
          {overflows && (
            <>
              <Button
                variant="floating"
                size="icon"
                pill
                aria-label="Scroll up"
                onClick={() =>
                  window.scrollBy({ top: -SCROLL_STEP_PX, behavior: scrollBehavior() })
                }
              >
                <ChevronUp aria-hidden="true" />
              </Button>
              <Button
                variant="floating"
                size="icon"
                pill
                aria-label="Scroll down"
                onClick={() => window.scrollBy({ top: SCROLL_STEP_PX, behavior: scrollBehavior() })}
              >
                <ChevronDown aria-hidden="true" />
              </Button>
            </>
          )}
          {pastHalf && (
            <Button
              size="sm"
              pill
              onClick={() => window.scrollTo({ top: 0, behavior: scrollBehavior() })}
            >
              <ArrowUpToLine aria-hidden="true" />
              BACK TO TOP
            </Button>
          )}
        </div>
      )}
    </>
  );
}
