import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../context.ts';
import { startPeriodicWorker } from '../../lib/periodic-worker.ts';
import { REVIEW_BATCH, runFairPlayPass } from './review.ts';

/** How often each instance looks for results to release and matches to refund. */
export const FAIR_PLAY_INTERVAL_MS = 15_000;

/**
 * The fair-play worker of one instance (docs/fair-play.md). Every instance runs it; each row is
 * claimed with `SKIP LOCKED` and changed in the claim's transaction, so the instances share the
 * work and none is done twice.
 */
export function startFairPlayWorker(
  ctx: AppContext,
  log: FastifyBaseLogger,
  intervalMs: number,
): () => Promise<void> {
  const { stop } = startPeriodicWorker({
    pass: async () => {
      const pass = await runFairPlayPass(ctx, REVIEW_BATCH);
      if (pass.released + pass.expired > 0)
        log.info(pass, 'fair play: results released, matches refunded');
      return Math.max(pass.released, pass.reminded, pass.expired);
    },
    batch: REVIEW_BATCH,
    intervalMs,
    onError: (error) => log.error({ err: error }, 'fair play worker failed'),
  });
  return stop;
}
