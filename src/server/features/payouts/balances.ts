import type { FastifyBaseLogger } from 'fastify';
import { and, count, eq, sql } from 'drizzle-orm';
import type { PayoutBalances } from '#shared/contracts/payouts.ts';
import type { AppContext } from '../../context.ts';
import { payouts } from '../../db/schema/payouts.ts';
import { PaymentProviderError } from '../payments/index.ts';
import type { PayoutProvider } from './providers/types.ts';
import { SENDER_REASONS } from './sender.ts';

/**
 * The admin's view of the provider's balances (docs/payouts.md): each offered coin, what the
 * provider holds of it, how many payouts in it are queued and whether one waits for the balance.
 */
export async function payoutBalancesOf(
  ctx: AppContext,
  provider: PayoutProvider | null,
  log: FastifyBaseLogger,
): Promise<PayoutBalances> {
  if (!provider) return { provider: null, balances: null };
  let held;
  try {
    held = await provider.balances();
  } catch (error) {
    if (!(error instanceof PaymentProviderError)) throw error;
    log.warn({ err: error }, 'the payout provider did not tell its balance');
    return { provider: provider.name, balances: null };
  }
  const queued = await ctx.db
    .select({
      currency: payouts.currency,
      queued: count(),
      short: sql<boolean>`bool_or(${payouts.stageReason} = ${SENDER_REASONS.balanceShort})`,
    })
    .from(payouts)
    .where(and(eq(payouts.status, 'pending'), eq(payouts.stage, 'queued')))
    .groupBy(payouts.currency);
  return {
    provider: provider.name,
    balances: ctx.env.PAYOUT_CURRENCIES.map((currency) => {
      const balance = held.find((row) => row.currency === currency);
      const waiting = queued.find((row) => row.currency === currency);
      return {
        currency,
        amount: balance?.amount ?? '0',
        pending: balance?.pending ?? '0',
        queuedCount: Number(waiting?.queued ?? 0),
        short: Boolean(waiting?.short),
      };
    }),
  };
}
