import { useEffect, useState } from 'react';
import { afterFirstPaint } from '#client/lib/first-paint.ts';
import { BACK_TO_TOP_FRACTION, SCROLL_OVERFLOW_THRESHOLD_PX } from '#client/lib/ui-constants.ts';

export interface ScrollMetrics {
  /** How far down the page the reader is, 0 to 100. */
  progressPercent: number;
  /** The page is taller than the viewport by more than the SPEC's threshold. */
  overflows: boolean;
  /** The reader is past the point where BACK TO TOP appears. */
  pastHalf: boolean;
}

const AT_TOP: ScrollMetrics = { progressPercent: 0, overflows: false, pastHalf: false };

function readScrollMetrics(): ScrollMetrics {
  const root = document.documentElement;
  const scrollableHeight = root.scrollHeight - window.innerHeight;
  // Whether the page needs the controls is judged without the spacer they add at its end.
  const controlsSpacer = parseFloat(root.style.getPropertyValue('--scroll-controls-height')) || 0;
  const fraction =
    scrollableHeight > 0 ? Math.min(1, Math.max(0, window.scrollY / scrollableHeight)) : 0;
  return {
    progressPercent: Math.round(fraction * 1000) / 10,
    overflows: scrollableHeight - controlsSpacer > SCROLL_OVERFLOW_THRESHOLD_PX,
    pastHalf: fraction > BACK_TO_TOP_FRACTION,
  };
}

function sameMetrics(a: ScrollMetrics, b: ScrollMetrics): boolean {
  return (
    a.progressPercent === b.progressPercent &&
    a.overflows === b.overflows &&
    a.pastHalf === b.pastHalf
  );
}

/** Tracks the window's scroll position and page height, at most once per animation frame. */
export function useScrollMetrics(): ScrollMetrics {
  const [metrics, setMetrics] = useState(AT_TOP);

  useEffect(() => {
    let frame: number | undefined;
    const measure = () => {
      frame = undefined;
      const next = readScrollMetrics();
      setMetrics((previous) => (sameMetrics(previous, next) ? previous : next));
    };
    const scheduleMeasure = () => {
      frame ??= requestAnimationFrame(measure);
    };

    // Data that arrives after the first paint makes the page taller without any scroll or resize
    // event. jsdom has no ResizeObserver; there the two events below still keep the metrics right.
    const resizeObserver =
      typeof ResizeObserver === 'function' ? new ResizeObserver(scheduleMeasure) : undefined;
    let stopped = false;
    // Reading the page's height lays it out: not before the first paint, which the controls
    // (hidden until the page overflows) have no part in.
    void afterFirstPaint().then(() => {
      if (stopped) return;
      scheduleMeasure();
      window.addEventListener('scroll', scheduleMeasure, { passive: true });
      window.addEventListener('resize', scheduleMeasure);
      resizeObserver?.observe(document.body);
    });

    return () => {
      stopped = true;
      if (frame !== undefined) cancelAnimationFrame(frame);
      window.removeEventListener('scroll', scheduleMeasure);
      window.removeEventListener('resize', scheduleMeasure);
      resizeObserver?.disconnect();
    };
  }, []);

  return metrics;
}
