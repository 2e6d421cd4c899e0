import { and, asc, eq, inArray, ne, or } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { tournamentEntries, tournamentMatches, tournaments } from '../../db/schema/tournaments.ts';

/**
 * Why a tournament still holds money of a player's: their fee waits for the start (`open`), they
 * are still in the bracket (`playing`), or they are out of it (`out`) while it goes on, and its
 * end may still pay them a prize, or an admin's cancellation refund their fee.
 */
export type TournamentHold = { tournamentId: number; state: 'open' | 'playing' | 'out' };

/** The tournaments not yet finished or cancelled in which the player holds an entry, oldest first. */
export async function tournamentHoldsOf(db: Executor, userId: number): Promise<TournamentHold[]> {
  const entered = await db
    .select({ id: tournaments.id, status: tournaments.status })
    .from(tournamentEntries)
    .innerJoin(tournaments, eq(tournaments.id, tournamentEntries.tournamentId))
    .where(
      and(
        eq(tournamentEntries.userId, userId),
        eq(tournamentEntries.status, 'entered'),
        inArray(tournaments.status, ['open', 'live']),
      ),
    )
    .orderBy(asc(tournamentEntries.id));
  const holds: TournamentHold[] = [];
  for (const tournament of entered) {
    if (tournament.status === 'open') {
      holds.push({ tournamentId: tournament.id, state: 'open' });
      continue;
    }
    const [lost] = await db
      .select({ id: tournamentMatches.id })
      .from(tournamentMatches)
      .where(
        and(
          eq(tournamentMatches.tournamentId, tournament.id),
          eq(tournamentMatches.status, 'done'),
          or(eq(tournamentMatches.playerAId, userId), eq(tournamentMatches.playerBId, userId)),
          ne(tournamentMatches.winnerId, userId),
        ),
      )
      .limit(1);
    holds.push({ tournamentId: tournament.id, state: lost ? 'out' : 'playing' });
  }
  return holds;
}
