import { render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

/** A fresh copy of the module (its state is "painted or not"), with animation frames held. */
async function withHeldFrames() {
  vi.resetModules();
  const frames: FrameRequestCallback[] = [];
  vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) => {
    frames.push(callback);
    return frames.length;
  });
  const module = await import('./first-paint.ts');
  const drawFrame = () => frames.splice(0).forEach((callback) => callback(performance.now()));
  return { ...module, drawFrame };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

function keepBusy(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('afterFirstPaint', () => {
  it('waits for a frame to be drawn, then for the task after it, once for all callers', async () => {
    const { afterFirstPaint, drawFrame } = await withHeldFrames();
    let resolved = 0;
    void afterFirstPaint().then(() => (resolved += 1));
    void afterFirstPaint().then(() => (resolved += 1));
    await tick();
    expect(resolved).toBe(0);
    drawFrame();
    expect(resolved).toBe(0);
    await tick();
    expect(resolved).toBe(2);
    // Later callers need no new frame.
    await afterFirstPaint();
  });

  it('lets a component know: false on its first render, true after the frame', async () => {
    const { useAfterFirstPaint, drawFrame } = await withHeldFrames();
    function Probe() {
      return <p>{useAfterFirstPaint() ? 'painted' : 'first frame'}</p>;
    }
    render(<Probe />);
    expect(screen.getByText('first frame')).toBeInTheDocument();
    await tick();
    expect(screen.getByText('first frame')).toBeInTheDocument();
    drawFrame();
    expect(await screen.findByText('painted')).toBeInTheDocument();
    // Mounted after the first paint: true from its first render.
    const seen: boolean[] = [];
    function Recorder() {
      seen.push(useAfterFirstPaint());
      return null;
    }
    render(<Recorder />);
    expect(seen[0]).toBe(true);
  });

  it('renders what appears after the first paint in slices, so that other work runs between them', async () => {
    const { useAfterFirstPaint, drawFrame } = await withHeldFrames();
    let renders = 0;
    let rendersBeforeOtherWork: number | undefined;
    function SlowPart() {
      renders += 1;
      // Work that arrives once the render has started: a tap, a network answer.
      if (renders === 1) setTimeout(() => (rendersBeforeOtherWork = renders), 0);
      keepBusy(3);
      return <li />;
    }
    function AfterPaint() {
      return useAfterFirstPaint() ? <SlowPart /> : null;
    }
    const { container } = render(
      <ul>
        {Array.from({ length: 20 }, (_, index) => (
          <AfterPaint key={index} />
        ))}
      </ul>,
    );

    drawFrame();

    await waitFor(() => expect(container.querySelectorAll('li')).toHaveLength(20));
    expect(rendersBeforeOtherWork).toBeDefined();
    expect(rendersBeforeOtherWork).toBeLessThan(renders);
  });

  it('waits for the browser to report its first contentful paint, where it can', async () => {
    const { afterFirstPaint } = await withHeldFrames();
    let report: ((names: string[]) => void) | undefined;
    class PaintObserver {
      static readonly supportedEntryTypes = ['paint'];
      constructor(callback: (entries: { getEntriesByName(name: string): unknown[] }) => void) {
        report = (names) =>
          callback({ getEntriesByName: (name) => names.filter((entry) => entry === name) });
      }
      observe() {}
      disconnect() {}
    }
    vi.stubGlobal('PerformanceObserver', PaintObserver);
    let resolved = false;
    void afterFirstPaint().then(() => (resolved = true));
    report?.(['first-paint']);
    await tick();
    expect(resolved).toBe(false);
    report?.(['first-contentful-paint']);
    await tick();
    expect(resolved).toBe(true);
  });

  it('gives up waiting after a second: a page loaded in a background tab paints nothing', async () => {
    const { afterFirstPaint } = await withHeldFrames();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let resolved = false;
    void afterFirstPaint().then(() => (resolved = true));
    await vi.advanceTimersByTimeAsync(999);
    expect(resolved).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(resolved).toBe(true);
  });
});
