export interface PeriodicWorker {
  /** Runs a pass now instead of at the next tick (after the pass in flight, if any). */
  wake(): void;
  /** Stops the timer and waits for the pass in flight. */
  stop(): Promise<void>;
}

/**
 * Runs `pass` every `intervalMs` until stopped, one pass at a time. A pass that took a whole
 * batch (`pass` returns how many rows it claimed) means more may be due, so the worker goes on at
 * once instead of waiting for the next tick: one batch per tick would cap throughput and let a
 * busy evening build a backlog that never ends. Stopping waits for the pass in flight.
 */
export function startPeriodicWorker(options: {
  pass: () => Promise<number>;
  batch: number;
  intervalMs: number;
  onError: (error: unknown) => void;
}): PeriodicWorker {
  let stopped = false;
  let running: Promise<unknown> = Promise.resolve();
  const drain = async () => {
    while (!stopped) {
      if ((await options.pass()) < options.batch) return;
    }
  };
  // At most one pass waits behind the one running: a burst of wakes (a hundred sign-ups at once)
  // needs one more pass, not a hundred.
  let queued = false;
  const run = () => {
    if (queued) return;
    queued = true;
    running = running
      .then(() => {
        queued = false;
        return drain();
      })
      .catch(options.onError);
  };
  const timer = setInterval(run, options.intervalMs);
  timer.unref();
  return {
    wake: () => {
      if (!stopped) run();
    },
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
