import { useLayoutEffect, type RefObject } from 'react';

/**
 * A bar that appeared or grew after the browser scrolled the focused element into view (BACK TO
 * TOP shows once that scroll passes the page's middle) can cover it: the element is scrolled
 * clear again, by the scroll-padding the bar's new size makes. A focused text field is scrolled
 * only as far as its caret by the browser, leaving the rest of the field under the bar: the same
 * scroll clears it.
 */
function keepFocusClear(bar: HTMLElement, edge: 'top' | 'bottom', reach: number): void {
  const focused = document.activeElement;
  // The bar's own controls stay where they are.
  if (!(focused instanceof HTMLElement) || focused === document.body || bar.contains(focused))
    return;
  const rect = focused.getBoundingClientRect();
  const covered = edge === 'top' ? rect.top < reach : rect.bottom > window.innerHeight - reach;
  if (covered) focused.scrollIntoView({ block: 'nearest' });
}

/** The CSS variables the page's scroll-padding is made of (styles.css). */
export type FixedBarVariable = '--top-bar-height' | '--scroll-controls-height';

/**
 * Publishes how far a bar that stays on screen (sticky at the top, fixed at the bottom) reaches
 * into the window, as a CSS variable on <html>. The root's scroll-padding is made of these, so
 * the browser scrolls a focused element clear of the bars instead of under them (WCAG 2.4.11
 * Focus Not Obscured). Measured rather than written down, because the bars wrap and grow with
 * the text size. The variable goes away with the bar.
 */
export function useFixedBarHeight(
  ref: RefObject<HTMLElement | null>,
  variable: FixedBarVariable,
  edge: 'top' | 'bottom',
): void {
  useLayoutEffect(() => {
    const bar = ref.current;
    if (!bar) return;
    const root = document.documentElement;
    let lastReach = 0;
    const measure = () => {
      const rect = bar.getBoundingClientRect();
      // A floating bar's gap to the edge of the window counts too.
      const reach = Math.max(
        0,
        Math.ceil(edge === 'top' ? rect.bottom : window.innerHeight - rect.top),
      );
      root.style.setProperty(variable, `${reach}px`);
      lastReach = reach;
      keepFocusClear(bar, edge, reach);
    };
    // After the browser's own scroll for the focus, which comes with it.
    const onFocus = () => requestAnimationFrame(() => keepFocusClear(bar, edge, lastReach));
    measure();
    document.addEventListener('focusin', onFocus);
    // jsdom has no ResizeObserver; there the window's resize event is all there is.
    const observer = typeof ResizeObserver === 'function' ? new ResizeObserver(measure) : null;
    observer?.observe(bar);
    window.addEventListener('resize', measure);
    return () => {
      observer?.disconnect();
      window.removeEventListener('resize', measure);
      document.removeEventListener('focusin', onFocus);
      root.style.removeProperty(variable);
    };
  }, [ref, variable, edge]);
}
