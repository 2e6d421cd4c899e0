import { lazy, useState, type ComponentType, type ReactNode } from 'react';

export interface LazyPage<P extends object> {
  (props: P): ReactNode;
  /** Starts downloading the page's chunk (once); resolves when it can render. */
  preload: () => Promise<unknown>;
}

/**
 * A code-split page, like React.lazy, with one difference that matters on the first load: a page
 * whose chunk is already in renders in the same pass. React.lazy suspends on its first render even
 * when the chunk came in long before, so the shell would show a spinner for a frame and the page
 * would then push the footer down (a layout shift). main.tsx preloads the page of the address
 * being opened before the first render.
 */
export function lazyPage<P extends object>(load: () => Promise<ComponentType<P>>): LazyPage<P> {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<{ default: ComponentType<P> }> | undefined;
  const preload = () =>
    (loading ??= load().then((component) => {
      loaded = component;
      return { default: component };
    }));
  const Lazy = lazy(preload);
  function Page(props: P) {
    // Chosen once per mount: switching from one to the other later would remount the page.
    const [Component] = useState<ComponentType<P>>(() => loaded ?? Lazy);
    return <Component {...props} />;
  }
  return Object.assign(Page, { preload });
}
