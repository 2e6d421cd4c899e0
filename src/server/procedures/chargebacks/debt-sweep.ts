import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../context.ts';
import { inTransaction } from '../../db/transaction.ts';
import { debtorsWithMoney } from '../../features/ledger/index.ts';
import { startPeriodicWorker } from '../../lib/periodic-worker.ts';

export const DEBT_SWEEP_BATCH = 50;
/** How often the server sweeps: money a debtor cannot spend waits at most this long. */
export const CHARGEBACK_INTERVAL_MS = 60_000;

/**
 * Pays debts from money that reached a debtor's wallet without a transfer of `ledger.post`
 * (docs/chargebacks.md): a result an admin recorded straight into the winner's wallet, in one
 * statement. Each repayment locks the wallet and the debt and pays what both still allow, so two
 * instances sweeping one player move the money once; a random key only names the transfer.
 * Answers how many players it looked at.
 */
export async function sweepDebts(ctx: AppContext, batch = DEBT_SWEEP_BATCH): Promise<number> {
  const debtors = await debtorsWithMoney(ctx.db, batch);
  for (const userId of debtors) {
    await inTransaction(ctx.db, (uow) =>
      ctx.ledger.repayDebt(uow, userId, `debt-repayment:sweep:${userId}:${randomUUID()}`),
    );
  }
  return debtors.length;
}

export function startChargebackWorker(
  ctx: AppContext,
  log: FastifyBaseLogger,
  intervalMs: number,
): () => Promise<void> {
  const { stop } = startPeriodicWorker({
    pass: async () => {
      const swept = await sweepDebts(ctx);
      if (swept > 0) log.info({ swept }, 'chargebacks: debts repaid from wallets');
      return swept;
    },
    batch: DEBT_SWEEP_BATCH,
    intervalMs,
    onError: (error) => log.error({ err: error }, 'chargeback worker failed'),
  });
  return stop;
}
