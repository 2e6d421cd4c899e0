import type { FastifyBaseLogger } from 'fastify';
import { countUnhandledRejection } from '../plugins/metrics.ts';

/**
 * Keeps the process serving when a promise rejects with nothing to handle it. Node's default is
 * to exit, and then one request that reaches such a bug stops every player's service on this
 * instance (issue 35: a voice handshake did). A rejection leaves no state half-changed that the
 * process would go on with (money moves in transactions, which roll back), so it is logged as
 * the bug it is, counted for an alert, and the server goes on. Answers a function that removes
 * the handler.
 */
export function keepServingOnUnhandledRejections(
  log: Pick<FastifyBaseLogger, 'error'>,
): () => void {
  const onRejection = (reason: unknown): void => {
    countUnhandledRejection();
    log.error({ err: reason }, 'a promise rejected with nothing to handle it; still serving');
  };
  process.on('unhandledRejection', onRejection);
  return () => {
    process.off('unhandledRejection', onRejection);
  };
}
