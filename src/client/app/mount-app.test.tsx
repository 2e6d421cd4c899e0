import { expect, it, vi } from 'vitest';
import { mountApp } from './mount-app.tsx';

const PARTS = 20;
const PART_RENDER_MS = 3;

/** A part of a screen whose render keeps the thread busy for as long as `onRender` takes. */
function SlowPart({ onRender }: { onRender: () => void }) {
  onRender();
  return <span />;
}

function keepBusy(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

it('renders the first screen in slices, so that other work runs before the render is done', async () => {
  const container = document.createElement('div');
  let renders = 0;
  let rendersBeforeOtherWork: number | undefined;
  const onRender = () => {
    keepBusy(PART_RENDER_MS);
    renders += 1;
    // Work that arrives once the render has started: a tap, a network answer.
    if (renders === 1) setTimeout(() => (rendersBeforeOtherWork = renders), 0);
  };

  mountApp(
    container,
    Array.from({ length: PARTS }, (_, index) => <SlowPart key={index} onRender={onRender} />),
  );

  await vi.waitFor(() => expect(container.querySelectorAll('span')).toHaveLength(PARTS));
  expect(rendersBeforeOtherWork).toBeDefined();
  expect(rendersBeforeOtherWork).toBeLessThan(renders);
});
