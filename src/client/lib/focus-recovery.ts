import { useEffect, useEffectEvent, useRef, type FocusEvent } from 'react';

/** Where focus was inside a container when the element holding it went away. */
export interface LostFocus {
  /** The `data-focus-key` of the item that held focus (a challenge card, say), if any. */
  key: string | null;
  /** That item's position among the container's keyed items at the time. */
  index: number;
}

interface Tracked {
  /** Focus is in the container, or in a dialog opened from it (a portal, elsewhere in the DOM). */
  inside: boolean;
  element: Element | null;
  lost: LostFocus;
}

function keyedItems(container: HTMLElement): HTMLElement[] {
  return Array.from(container.querySelectorAll<HTMLElement>('[data-focus-key]'));
}

/**
 * Keeps keyboard focus from falling to the page body when a re-render takes the focused element
 * away inside `container`: a card that leaves its list once accepted, the button a changed status
 * no longer offers, a dialog that closes after its trigger went. `pickTarget` chooses what gets
 * focus instead. Spread the returned props on the container.
 *
 * A click on the page outside any control, or focus leaving for another part of the page, is not
 * a loss: nothing is moved then.
 */
export function useFocusRecovery<T extends HTMLElement>(
  pickTarget: (container: T, lost: LostFocus) => HTMLElement | null,
) {
  const ref = useRef<T>(null);
  const tracked = useRef<Tracked>({ inside: false, element: null, lost: { key: null, index: 0 } });
  const recover = useEffectEvent((container: T) => {
    const { inside, element, lost } = tracked.current;
    if (!inside) return;
    const active = document.activeElement;
    const dropped =
      active === null ||
      active === document.body ||
      (active === element && active.matches(':disabled'));
    if (dropped) pickTarget(container, lost)?.focus();
  });

  useEffect(() => {
    const container = ref.current;
    if (!container) return;
    // Mutation callbacks run after React has committed, when the removed element is gone.
    const observer = new MutationObserver(() => recover(container));
    observer.observe(container, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ['disabled'],
    });
    return () => observer.disconnect();
  }, []);

  const onFocus = (event: FocusEvent<T>) => {
    const state = tracked.current;
    state.inside = true;
    const container = event.currentTarget;
    // Focus in a portal (an open dialog) keeps the place of the control that opened it.
    if (!container.contains(event.target)) return;
    state.element = event.target;
    const item = event.target.closest<HTMLElement>('[data-focus-key]');
    state.lost = {
      key: item?.dataset.focusKey ?? null,
      index: item ? Math.max(0, keyedItems(container).indexOf(item)) : 0,
    };
  };

  const onBlur = (event: FocusEvent<T>) => {
    const { target, relatedTarget } = event;
    // Without a next element, a blur of a control that is still there and usable is a click on
    // the page or the window losing focus; a removed or disabled one is the loss to recover from.
    if (relatedTarget !== null || (target.isConnected && !target.matches(':disabled'))) {
      tracked.current.inside = false;
    }
  };

  return { ref, onFocus, onBlur };
}

const CONTROLS = 'a[href], button:not(:disabled)';

/**
 * The usual choice: in a list, the same item if it is still there, else the one that took its
 * place (or the new last one), and in that item its `data-focus-target` or first control; with
 * no item left, the first control in the container (an empty state's button, a changed status's
 * action), else the container itself.
 */
export function pickFocusTarget(container: HTMLElement, lost: LostFocus): HTMLElement | null {
  const items = keyedItems(container);
  const item =
    items.find((candidate) => candidate.dataset.focusKey === lost.key) ??
    items[Math.min(lost.index, items.length - 1)];
  return (
    item?.querySelector<HTMLElement>('[data-focus-target]') ??
    item?.querySelector<HTMLElement>(CONTROLS) ??
    container.querySelector<HTMLElement>(CONTROLS) ??
    container
  );
}

/**
 * Focuses the page's main heading (headings that can take focus say so with tabindex="-1"): the
 * place to land when the control that had focus is gone for good, as after the results modal.
 */
export function focusMainHeading(): void {
  document.querySelector<HTMLElement>('main h1[tabindex="-1"]')?.focus();
}
