/**
 * Runs `pass` every `intervalMs` until the returned function is called, one pass at a time. A
 * pass that took a whole batch (`pass` returns how many rows it claimed) means more may be due,
 * so the worker goes on at once instead of waiting for the next tick: one batch per tick would
 * cap throughput and let a busy evening build a backlog that never ends. Stopping waits for the
 * pass in flight.
 */
export function startPeriodicWorker(options: {
  pass: () => Promise<number>;
  batch: number;
  intervalMs: number;
  onError: (error: unknown) => void;
}): () => Promise<void> {
  let stopped = false;
  let running: Promise<unknown> = Promise.resolve();
  const drain = async () => {
    while (!stopped) {
      if ((await options.pass()) < options.batch) return;
    }
  };
  const timer = setInterval(() => {
    running = running.then(drain).catch(options.onError);
  }, options.intervalMs);
  timer.unref();
  return async () => {
    stopped = true;
    clearInterval(timer);
    await running;
  };
}
