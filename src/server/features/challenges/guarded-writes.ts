import { CHALLENGE_MESSAGES } from '#shared/contracts/challenges.ts';
import type { AppContext } from '../../context.ts';
import { type Challenge } from '../../db/schema/challenges.ts';
import { retryingConflicts, type UnitOfWork } from '../../db/transaction.ts';
import { AppError } from '../../errors.ts';
import { lockChallenge } from './repository.ts';
import { challengeEvent } from './review.ts';
import { requireCashPlayAllowed, type StandingColumns } from '../accounts/index.ts';

/**
 * How a challenge call writes: on the challenge as it reads now, guarded by what it relied on, or
 * with its row locked; and how a committed change is announced.
 */

export type Announced = Pick<Challenge, 'id' | 'status' | 'creatorId' | 'acceptorId'> &
  Partial<Pick<Challenge, 'opponentId'>>;

/**
 * Announces a change made in one call that has committed already (docs/architecture.md#realtime).
 */
export async function announceCommitted(ctx: AppContext, challenge: Announced): Promise<void> {
  await ctx.bus.publish(challengeEvent(challenge));
}

/**
 * Runs `attempt` on the challenge (or the player's suspension) as it reads now. `attempt` checks
 * the rules on what it read and writes in one call guarded by what it relied on (`status =
 * 'accepted'`, say); null means the row changed between the read and the write, and it is read
 * and judged again. A challenge's status only moves forward, and a suspension changes only by an
 * admin's hand, so a second round either succeeds or refuses.
 */
export async function onCurrentState<T, R>(
  read: () => Promise<R | undefined>,
  attempt: (current: R) => Promise<T | null>,
): Promise<T> {
  return retryingConflicts(async () => {
    for (let round = 1; round <= 3; round += 1) {
      const current = await read();
      if (current === undefined) throw new AppError('NOT_FOUND', CHALLENGE_MESSAGES.notFound);
      const result = await attempt(current);
      if (result !== null) return result;
    }
    throw new Error('a row kept changing under a guarded write');
  });
}

export async function requireLocked(uow: UnitOfWork, challengeId: number): Promise<Challenge> {
  const challenge = await lockChallenge(uow.tx, challengeId);
  if (!challenge) throw new AppError('NOT_FOUND', CHALLENGE_MESSAGES.notFound);
  return challenge;
}

/**
 * The player's standing for each round of `onCurrentState`: `justRead` (what the route read with
 * the player's state, moments ago) in the first, read afresh in any later one.
 */
export function standingRounds(
  ctx: AppContext,
  playerId: number,
  justRead: StandingColumns | undefined,
): () => Promise<StandingColumns> {
  let first = justRead;
  return () => {
    const given = first;
    first = undefined;
    return requireCashPlayAllowed(ctx.db, playerId, ctx.clock(), given);
  };
}
