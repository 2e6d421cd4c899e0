import { and, eq } from 'drizzle-orm';
import { formatCents, type Cents } from '#shared/money.ts';
import type { AppContext } from '../../context.ts';
import { licenseVerifications } from '../../db/schema/license-verifications.ts';
import type { UnitOfWork } from '../../db/transaction.ts';
import { riskFlagsOf, riskSettingsOf } from '../risk/index.ts';
import { isSuspended, playBreakOf, readStanding } from '../accounts/index.ts';

/**
 * Why a payout waits for an admin (docs/payouts.md), in the words the player and the admin read.
 */
export const REVIEW_REASONS = {
  byHand: 'details to check by hand',
  automaticOff: 'automatic payouts are off',
  overMax: (max: Cents) => `over ${formatCents(max).replace(/\.00$/, '')}`,
  identity: 'ID not yet approved',
  suspended: 'account suspended',
  onBreak: 'on a break from play',
} as const;

/** How the reasons a payout waits for are joined in its `stage_reason`. */
export const REVIEW_REASON_SEPARATOR = '; ';

/** Whether an admin has ever approved this player's ID: a proven identity stays proven. */
export async function hasApprovedIdentity(uow: UnitOfWork, userId: number): Promise<boolean> {
  const [row] = await uow.tx
    .select({ id: licenseVerifications.id })
    .from(licenseVerifications)
    .where(
      and(eq(licenseVerifications.userId, userId), eq(licenseVerifications.status, 'approved')),
    )
    .limit(1);
  return row !== undefined;
}

/**
 * Every reason this payout needs a person (docs/payouts.md), or none: then the sender takes it. The
 * rules are read in the request's transaction, after its own row and hold, so the withdrawal
 * being asked for counts in the risk signal that compares withdrawals with play. A closed account
 * cannot ask at all, so "closing" needs no rule of its own here.
 */
export async function reviewReasonsFor(
  ctx: AppContext,
  uow: UnitOfWork,
  payout: { userId: number; amountCents: Cents; hasAddress: boolean; automatic: boolean },
): Promise<string[]> {
  const now = ctx.clock();
  const reasons: string[] = [];
  if (!payout.hasAddress) reasons.push(REVIEW_REASONS.byHand);
  else if (!payout.automatic) reasons.push(REVIEW_REASONS.automaticOff);
  if (payout.amountCents > ctx.env.AUTO_PAYOUT_MAX) {
    reasons.push(REVIEW_REASONS.overMax(ctx.env.AUTO_PAYOUT_MAX));
  }
  if (!(await hasApprovedIdentity(uow, payout.userId))) reasons.push(REVIEW_REASONS.identity);
  const standing = await readStanding(uow.tx, payout.userId);
  if (isSuspended(standing, now)) reasons.push(REVIEW_REASONS.suspended);
  if (playBreakOf(standing, now)) reasons.push(REVIEW_REASONS.onBreak);
  reasons.push(...(await riskFlagsOf(uow.tx, riskSettingsOf(ctx.env), now, payout.userId)));
  return reasons;
}
