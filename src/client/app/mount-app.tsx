import { startTransition, StrictMode, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';

/**
 * Renders `app` into `container` for the first time, as a transition. React renders an ordinary
 * update in one go, and the first screen was one task of 110 to 190 ms on Lighthouse's phone (a
 * 4× slower CPU), most of it blocking time; a transition is rendered in slices of about 5 ms,
 * with the main thread handed back between them. Nothing is on screen before this render
 * commits, so nothing shows later than it did.
 */
export function mountApp(container: HTMLElement, app: ReactNode): void {
  const root = createRoot(container);
  startTransition(() => {
    root.render(<StrictMode>{app}</StrictMode>);
  });
}
