import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../context.ts';
import { startPeriodicWorker } from '../../lib/periodic-worker.ts';
import { runTournamentPass, TOURNAMENT_BATCH } from './service.ts';

/**
 * How often each instance looks for tournaments to start, results to let stand and matches past
 * their time limit.
 */
export const TOURNAMENT_INTERVAL_MS = 5_000;

/**
 * The tournament worker of one instance (DESIGN §13): starts tournaments whose time has come,
 * lets results whose review ended stand and decides matches past their time limit. Every
 * instance runs it; each tournament is claimed with `SKIP LOCKED` and changed in the claim's
 * transaction, so none is started or advanced twice.
 */
export function startTournamentWorker(
  ctx: AppContext,
  log: FastifyBaseLogger,
  intervalMs: number,
): () => Promise<void> {
  const { stop } = startPeriodicWorker({
    pass: async () => {
      const pass = await runTournamentPass(ctx, TOURNAMENT_BATCH);
      if (pass.started + pass.stood + pass.timedOut > 0)
        log.info(pass, 'tournaments: started, results stood, matches past their time limit');
      return Math.max(pass.started, pass.stood, pass.timedOut);
    },
    batch: TOURNAMENT_BATCH,
    intervalMs,
    onError: (error) => log.error({ err: error }, 'tournament worker failed'),
  });
  return stop;
}
