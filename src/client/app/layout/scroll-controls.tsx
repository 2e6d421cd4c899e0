import { useRef } from 'react';
import { ArrowUpToLine, ChevronDown, ChevronUp } from 'lucide-react';
import { Button } from '#client/components/ui/button.tsx';
import { cn } from '#client/lib/cn.ts';
import { SCROLL_STEP_PX } from '#client/lib/ui-constants.ts';
import { useFixedBarHeight } from './use-fixed-bar-height.ts';
import { useScrollMetrics } from './use-scroll-metrics.ts';

/** Smooth scrolling, unless the reader has asked the system for reduced motion. */
function scrollBehavior(): ScrollBehavior {
  return window.matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth';
}

/** The buttons, fixed to the bottom of the window, and the spacer that ends the page under them. */
function ControlsBar({ overflows, pastHalf }: { overflows: boolean; pastHalf: boolean }) {
  const bar = useRef<HTMLDivElement>(null);
  useFixedBarHeight(bar, '--scroll-controls-height', 'bottom');
  return (
    <>
      <div aria-hidden="true" className="h-(--scroll-controls-height)" />
      <div
        ref={bar}
        className={cn(
          'fixed inset-x-0 bottom-0 z-40 flex h-14 items-center justify-end gap-2 border-t border-ink-700/80 bg-ink-950/90 px-4 backdrop-blur-md',
          'sm:inset-x-auto sm:right-6 sm:bottom-6 sm:h-auto sm:border-0 sm:bg-transparent sm:p-0 sm:backdrop-blur-none',
        )}
      >
        {overflows && (
          <>
            <Button
              variant="floating"
              size="icon"
              pill
              aria-label="Scroll up"
              onClick={() => window.scrollBy({ top: -SCROLL_STEP_PX, behavior: scrollBehavior() })}
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
    </>
  );
}

/**
 * The page shell's scroll aids (docs/product.md#what-it-does): a thin progress bar on the right
 * edge, step buttons when the page is long enough to need them, and BACK TO TOP past the halfway
 * point.
 *
 * On a phone the buttons live in a slim bottom bar, elsewhere in a row floating at the bottom
 * right. Either way they cover the bottom of the window: the page's scroll-padding keeps a focused
 * element clear of them, and a spacer as tall as the space they take lets the end of the page
 * scroll out from under them.
 */
export function ScrollControls() {
  const { progressPercent, overflows, pastHalf } = useScrollMetrics();
  return (
    <>
      <progress className="scroll-progress" aria-hidden="true" max={100} value={progressPercent} />
      {(overflows || pastHalf) && <ControlsBar overflows={overflows} pastHalf={pastHalf} />}
    </>
  );
}
