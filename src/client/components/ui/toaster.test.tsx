import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen, within } from '@testing-library/react';
import { visibleToasts } from '#client/test-utils/toasts.ts';
import { dismissToast, toast } from '#client/lib/toast.ts';
import { TOAST_DURATION_MS } from '#client/lib/ui-constants.ts';
import { Toaster } from './toaster.tsx';

afterEach(() => {
  act(() => dismissToast());
  vi.useRealTimers();
});

describe('toasts', () => {
  it('shows one toast at a time: a new toast replaces the old', () => {
    render(<Toaster />);

    act(() => {
      toast({ title: 'First toast' });
    });
    expect(visibleToasts()).toHaveLength(1);

    act(() => {
      toast({ title: 'Second toast', description: 'Replaces the first', variant: 'destructive' });
    });

    const [only, ...rest] = visibleToasts();
    expect(rest).toHaveLength(0);
    expect(only).toHaveTextContent('Second toast');
    expect(only).toHaveTextContent('Replaces the first');
    expect(screen.queryByText('First toast')).not.toBeInTheDocument();
  });

  it('closes by itself after the default 5000 ms, and honours a custom duration', () => {
    vi.useFakeTimers();
    render(<Toaster />);

    act(() => {
      toast({ title: 'Default duration' });
    });
    act(() => vi.advanceTimersByTime(TOAST_DURATION_MS - 100));
    expect(visibleToasts()).toHaveLength(1);
    act(() => vi.advanceTimersByTime(200));
    expect(visibleToasts()).toHaveLength(0);

    act(() => {
      toast({ title: 'Long toast', duration: 8000 });
    });
    act(() => vi.advanceTimersByTime(TOAST_DURATION_MS + 100));
    expect(visibleToasts()).toHaveLength(1);
  });

  it('closes from its close button or a dismiss call', () => {
    render(<Toaster />);
    let handle: ReturnType<typeof toast> | undefined;

    act(() => {
      handle = toast({ title: 'Dismiss me' });
    });
    expect(visibleToasts()).toHaveLength(1);
    act(() => handle?.dismiss());
    expect(visibleToasts()).toHaveLength(0);

    act(() => {
      toast({ title: 'Close me' });
    });
    act(() =>
      within(visibleToasts()[0] ?? document.body)
        .getByRole('button', { name: 'Close' })
        .click(),
    );
    expect(visibleToasts()).toHaveLength(0);
  });

  it('names the F8 hotkey on its viewport', () => {
    render(<Toaster />);
    expect(screen.getByRole('region', { name: 'Notifications (F8)' })).toBeInTheDocument();
  });
});
