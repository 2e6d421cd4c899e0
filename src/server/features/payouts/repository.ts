import { and, desc, eq, inArray, lt, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { payouts, type Payout, type PayoutStatus } from '../../db/schema/payouts.ts';
import { users } from '../../db/schema/users.ts';

export interface PayoutPage {
  limit: number;
  before?: number | undefined;
}

/** One player's payouts, newest first: the only read a player can make. */
export async function listOwnPayouts(
  db: Executor,
  userId: number,
  page: PayoutPage,
): Promise<Payout[]> {
  const conditions: SQL[] = [eq(payouts.userId, userId)];
  if (page.before !== undefined) conditions.push(lt(payouts.id, page.before));
  return db
    .select()
    .from(payouts)
    .where(and(...conditions))
    .orderBy(desc(payouts.id))
    .limit(page.limit);
}

export interface PayoutWithOwner {
  payout: Payout;
  username: string;
}

/** Everyone's payouts for the admin queue, newest first, optionally of one status. */
export async function listPayoutsWithOwners(
  db: Executor,
  filter: PayoutPage & { status?: PayoutStatus | undefined },
): Promise<PayoutWithOwner[]> {
  const conditions: SQL[] = [];
  if (filter.status) conditions.push(eq(payouts.status, filter.status));
  if (filter.before !== undefined) conditions.push(lt(payouts.id, filter.before));
  return db
    .select({ payout: payouts, username: users.username })
    .from(payouts)
    .innerJoin(users, eq(users.id, payouts.userId))
    .where(conditions.length > 0 ? and(...conditions) : undefined)
    .orderBy(desc(payouts.id))
    .limit(filter.limit);
}

export async function findPayoutWithOwner(
  db: Executor,
  id: number,
): Promise<PayoutWithOwner | undefined> {
  const [row] = await db
    .select({ payout: payouts, username: users.username })
    .from(payouts)
    .innerJoin(users, eq(users.id, payouts.userId))
    .where(eq(payouts.id, id))
    .limit(1);
  return row;
}

/** Locks the payout row until the transaction ends: every decision on it passes this gate. */
export async function lockPayout(db: Executor, id: number): Promise<Payout | undefined> {
  const [row] = await db.select().from(payouts).where(eq(payouts.id, id)).limit(1).for('update');
  return row;
}

/** A user's payouts waiting for an admin or the sender, locked in id order. */
export async function lockWaitingPayoutsOf(db: Executor, userId: number): Promise<Payout[]> {
  return db
    .select()
    .from(payouts)
    .where(
      and(
        eq(payouts.userId, userId),
        eq(payouts.status, 'pending'),
        inArray(payouts.stage, ['review', 'queued']),
      ),
    )
    .orderBy(payouts.id)
    .for('update');
}

/** A user's pending payouts, locked in id order (account deletion fails them all). */
export async function lockPendingPayoutsOf(db: Executor, userId: number): Promise<Payout[]> {
  return db
    .select()
    .from(payouts)
    .where(and(eq(payouts.userId, userId), eq(payouts.status, 'pending')))
    .orderBy(payouts.id)
    .for('update');
}
