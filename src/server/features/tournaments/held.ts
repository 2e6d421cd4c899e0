import { and, asc, eq, inArray, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { tournamentEntries, tournamentMatches, tournaments } from '../../db/schema/tournaments.ts';
import { bracketSize, placesOfLoser } from './bracket.ts';

/**
 * Why a tournament still holds money of a player's: their fee waits for the start (`open`), they
 * are still in the bracket (`playing`), or they are out but the place they lost in is paid at
 * the end (`prize`).
 */
export type TournamentHold = { tournamentId: number; state: 'open' | 'playing' | 'prize' };

/**
 * The tournaments not yet finished or cancelled in which the player holds an entry and may still
 * be refunded or paid, oldest entry first. A player knocked out in a round whose places win
 * nothing is left out: nothing more can come to them.
 */
export async function tournamentHoldsOf(db: Executor, userId: number): Promise<TournamentHold[]> {
  const entered = await db
    .select({ tournament: tournaments })
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
  for (const { tournament } of entered) {
    if (tournament.status === 'open') {
      holds.push({ tournamentId: tournament.id, state: 'open' });
      continue;
    }
    const losses = await db
      .select({ round: tournamentMatches.round, winnerId: tournamentMatches.winnerId })
      .from(tournamentMatches)
      .where(
        and(
          eq(tournamentMatches.tournamentId, tournament.id),
          eq(tournamentMatches.status, 'done'),
          or(eq(tournamentMatches.playerAId, userId), eq(tournamentMatches.playerBId, userId)),
        ),
      );
    const knockedOut = losses.find((match) => match.winnerId !== userId);
    if (!knockedOut) {
      holds.push({ tournamentId: tournament.id, state: 'playing' });
      continue;
    }
    const [count] = await db
      .select({ entrants: sql<number>`count(*)::int` })
      .from(tournamentEntries)
      .where(
        and(
          eq(tournamentEntries.tournamentId, tournament.id),
          eq(tournamentEntries.status, 'entered'),
        ),
      );
    const { first } = placesOfLoser(knockedOut.round, bracketSize(Number(count?.entrants ?? 0)));
    if (first <= tournament.prizeSplit.length)
      holds.push({ tournamentId: tournament.id, state: 'prize' });
  }
  return holds;
}
