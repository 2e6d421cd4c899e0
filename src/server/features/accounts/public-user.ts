import type { PublicUser } from '#shared/contracts/auth.ts';
import { centsToDollarNumber } from '#shared/money.ts';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import type { User } from '../../db/schema/users.ts';
import { getUserBalances, totalCents, ZERO_BALANCES, type UserBalances } from '../ledger/index.ts';
import { moneyLockOf, playBreakOf, suspensionOf } from './standing.ts';

/** Whether the account's current address was proven by a mailed link: only then is it mailed. */
export function hasVerifiedEmail(user: User): user is User & { email: string } {
  return user.email !== null && user.emailVerifiedAt !== null;
}

/** The API's view of a user at `now` (docs/product.md#data): never the password hash. */
export function toPublicUser(
  user: User,
  now: Date,
  balances: UserBalances = ZERO_BALANCES,
): PublicUser {
  return {
    id: user.id,
    username: user.username,
    balance: centsToDollarNumber(totalCents(balances)),
    available: centsToDollarNumber(balances.availableCents),
    underReview: centsToDollarNumber(balances.underReviewCents),
    avatarUrl: user.avatarUrl,
    isOver18: user.isOver18,
    isAdmin: user.isAdmin,
    phoneNumber: user.phoneNumber,
    email: user.email,
    createdAt: user.createdAt.toISOString(),
    suspension: suspensionOf(user, now),
    emailVerified: hasVerifiedEmail(user),
    twoFactorEnabled: user.totpSecret !== null,
    state: user.state,
    playBreak: playBreakOf(user, now),
    debt: centsToDollarNumber(balances.debtCents),
    moneyLock: moneyLockOf(user),
  };
}

/** The user with their current balances, read from the ledger: what a change answers. */
export async function loadPublicUser(db: Executor, user: User, now: Date): Promise<PublicUser> {
  return toPublicUser(user, now, await getUserBalances(db, user.id));
}

/**
 * The user with their balances as this instance last read them (decision 22): what GET /api/user
 * answers and the page names on every visit, for display only.
 */
export async function showPublicUser(
  ctx: Pick<AppContext, 'db' | 'balanceCache'>,
  user: User,
  now: Date,
): Promise<PublicUser> {
  return toPublicUser(user, now, await ctx.balanceCache.balancesOf(ctx.db, user.id, now.getTime()));
}
