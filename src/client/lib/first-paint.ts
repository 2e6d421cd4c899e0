import { startTransition, useEffect, useState } from 'react';

// A page loaded in a background tab paints nothing until it is shown: the deferred work starts
// anyway after this long.
const FIRST_PAINT_WAIT_MAX_MS = 1000;

let painted = false;
let afterPaint: Promise<void> | undefined;

/** Calls `then` once the browser reports its first contentful paint, or its next frame. */
function onFirstPaint(then: () => void): void {
  if (
    typeof PerformanceObserver !== 'undefined' &&
    PerformanceObserver.supportedEntryTypes.includes('paint')
  ) {
    const observer = new PerformanceObserver((entries) => {
      if (entries.getEntriesByName('first-contentful-paint').length === 0) return;
      observer.disconnect();
      then();
    });
    observer.observe({ type: 'paint', buffered: true });
    return;
  }
  // Without paint timing: a callback of the next animation frame runs just before it is drawn.
  requestAnimationFrame(() => then());
}

/**
 * Resolves once the browser has drawn the app's first content. What the first screen does not
 * show (the account socket, the lists under the home page's banner) waits for it: on a slow
 * phone, work started before that paint shares its CPU and network with it and pushes it back.
 */
export function afterFirstPaint(): Promise<void> {
  afterPaint ??= new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(fallback);
      painted = true;
      resolve();
    };
    const fallback = setTimeout(done, FIRST_PAINT_WAIT_MAX_MS);
    // In a task of its own, after whatever the browser does around the paint.
    onFirstPaint(() => setTimeout(done, 0));
  });
  return afterPaint;
}

/** False until the app's first content is drawn, then true for good. */
export function useAfterFirstPaint(): boolean {
  const [done, setDone] = useState(painted);
  useEffect(() => {
    if (done) return;
    let mounted = true;
    void afterFirstPaint().then(() => {
      // A transition, so that what appears now (the lists' spinners, their queries starting) is
      // rendered in slices instead of one long task just after the first paint.
      if (mounted) startTransition(() => setDone(true));
    });
    return () => {
      mounted = false;
    };
  }, [done]);
  return done;
}
