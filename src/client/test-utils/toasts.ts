import { screen, within } from '@testing-library/react';

/**
 * The toast viewport. While a modal dialog is open Radix hides everything outside it from the
 * accessibility tree (the toast itself is announced through a live region), so the viewport is
 * looked up including hidden elements: on screen it is still there, above the dialog.
 */
function toastRegion(): HTMLElement {
  return screen.getByRole('region', { name: /Notifications/, hidden: true });
}

/**
 * The toasts on screen: the list items of the Radix viewport region. (Radix also mirrors each
 * toast into a short-lived, visually hidden live region for screen readers; that is not counted.)
 */
export function visibleToasts(): HTMLElement[] {
  return within(toastRegion()).queryAllByRole('listitem', { hidden: true });
}

export async function findToast(title: string): Promise<HTMLElement> {
  const region = toastRegion();
  const titleElement = await within(region).findByText(title);
  const item = titleElement.closest('li');
  if (!item) throw new Error(`toast "${title}" is not in a list item`);
  return item;
}
