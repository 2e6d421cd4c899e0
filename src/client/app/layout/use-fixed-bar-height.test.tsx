import { afterEach, describe, expect, it, vi } from 'vitest';
import { useRef } from 'react';
import { render } from '@testing-library/react';
import { useFixedBarHeight } from './use-fixed-bar-height.ts';

afterEach(() => {
  vi.restoreAllMocks();
  document.documentElement.style.removeProperty('--scroll-controls-height');
});

/** A rectangle as jsdom's layout-free elements never have one. */
const at = (top: number, bottom: number) =>
  ({ top, bottom, left: 0, right: 100, width: 100, height: bottom - top }) as DOMRect;

function Page() {
  const bar = useRef<HTMLDivElement>(null);
  useFixedBarHeight(bar, '--scroll-controls-height', 'bottom');
  return (
    <>
      <a href="/terms">Terms</a>
      <div ref={bar} data-testid="bar">
        <button type="button">BACK TO TOP</button>
      </div>
    </>
  );
}

describe('useFixedBarHeight', () => {
  it('publishes how far a bottom bar reaches, and scrolls the focused element clear of it', () => {
    // The window is 768 px tall (jsdom); the bar takes its last 56 px.
    const view = render(<Page />);
    const link = view.getByText('Terms');
    const bar = view.getByTestId('bar');
    vi.spyOn(bar, 'getBoundingClientRect').mockReturnValue(at(712, 768));
    // Focused where the bar now covers it: just above the window's bottom edge.
    vi.spyOn(link, 'getBoundingClientRect').mockReturnValue(at(720, 740));
    const scrolled = vi.fn();
    link.scrollIntoView = scrolled;
    link.focus();

    window.dispatchEvent(new Event('resize'));
    expect(document.documentElement.style.getPropertyValue('--scroll-controls-height')).toBe(
      '56px',
    );
    expect(scrolled).toHaveBeenCalledWith({ block: 'nearest' });
  });

  it('leaves alone a focused element the bar does not reach, and the bar’s own controls', () => {
    const view = render(<Page />);
    const link = view.getByText('Terms');
    const button = view.getByText('BACK TO TOP');
    vi.spyOn(view.getByTestId('bar'), 'getBoundingClientRect').mockReturnValue(at(712, 768));
    vi.spyOn(link, 'getBoundingClientRect').mockReturnValue(at(300, 320));
    vi.spyOn(button, 'getBoundingClientRect').mockReturnValue(at(720, 740));
    const scrolled = vi.fn();
    link.scrollIntoView = scrolled;
    button.scrollIntoView = scrolled;

    link.focus();
    window.dispatchEvent(new Event('resize'));
    button.focus();
    window.dispatchEvent(new Event('resize'));
    expect(scrolled).not.toHaveBeenCalled();
  });
});
