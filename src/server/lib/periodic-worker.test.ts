import { expect, it } from 'vitest';
import { startPeriodicWorker } from './periodic-worker.ts';

it('a burst of wakes during a pass runs one more pass, not one per wake', async () => {
  let passes = 0;
  let finishFirst: () => void = () => {};
  const firstDone = new Promise<void>((resolve) => (finishFirst = resolve));
  const worker = startPeriodicWorker({
    pass: async () => {
      passes += 1;
      if (passes === 1) await firstDone;
      return 0;
    },
    batch: 10,
    intervalMs: 60_000,
    onError: (error) => {
      throw error;
    },
  });
  worker.wake();
  await new Promise((resolve) => setTimeout(resolve, 0));
  for (let i = 0; i < 50; i += 1) worker.wake();
  finishFirst();
  await expect.poll(() => passes).toBe(2);
  // Nothing else was left queued behind it.
  await new Promise((resolve) => setTimeout(resolve, 50));
  await worker.stop();
  expect(passes).toBe(2);
});
