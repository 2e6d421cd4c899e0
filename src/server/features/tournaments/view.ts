import { alias } from 'drizzle-orm/pg-core';
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import { WINNER_FEE_BASIS_POINTS } from '#shared/contracts/challenges.ts';
import {
  TOURNAMENT_DISPUTES_MAX,
  type AdminTournamentDispute,
  type TournamentDetail,
  type TournamentMatchView,
  type TournamentSummary,
} from '#shared/contracts/tournaments.ts';
import { centsToDollarNumber, percentOf } from '#shared/money.ts';
import type { Executor } from '../../db/client.ts';
import {
  tournamentEntries,
  tournamentMatches,
  tournaments,
  type Tournament,
} from '../../db/schema/tournaments.ts';
import { users } from '../../db/schema/users.ts';
import { bracketSize, roundsOf } from './bracket.ts';
import { evidenceOfMatches } from './evidence.ts';
import { matchDeadline } from './matches.ts';

/** The most tournaments the list shows: the latest by start time. */
export const TOURNAMENT_LIST_MAX = 200;

function summaryOf(tournament: Tournament, entrants: number, joined: boolean): TournamentSummary {
  const poolCents = tournament.entryFeeCents * BigInt(entrants);
  return {
    id: tournament.id,
    game: tournament.game,
    console: tournament.console,
    entryFee: centsToDollarNumber(tournament.entryFeeCents),
    size: tournament.size,
    startsAt: tournament.startsAt.toISOString(),
    status: tournament.status,
    allowByes: tournament.allowByes,
    prizeSplit: tournament.prizeSplit,
    entrants,
    placesLeft: tournament.status === 'open' ? tournament.size - entrants : 0,
    prizePool: centsToDollarNumber(poolCents - percentOf(poolCents, WINNER_FEE_BASIS_POINTS)),
    joined,
  };
}

const entrantCount = sql<number>`(select count(*)::int from tournament_entries e
  where e.tournament_id = "tournaments"."id" and e.status = 'entered')`;

const joinedBy = (viewerId: number) => sql<boolean>`exists (select 1 from tournament_entries e
  where e.tournament_id = "tournaments"."id" and e.status = 'entered' and e.user_id = ${viewerId})`;

export async function listTournaments(
  db: Executor,
  viewerId: number,
): Promise<TournamentSummary[]> {
  const rows = await db
    .select({ tournament: tournaments, entrants: entrantCount, joined: joinedBy(viewerId) })
    .from(tournaments)
    .orderBy(desc(tournaments.startsAt), desc(tournaments.id))
    .limit(TOURNAMENT_LIST_MAX);
  return rows.map((row) => summaryOf(row.tournament, Number(row.entrants), row.joined));
}

const playerA = alias(users, 'player_a');
const playerB = alias(users, 'player_b');

export async function tournamentDetail(
  db: Executor,
  id: number,
  viewerId: number,
  env: Parameters<typeof matchDeadline>[1],
): Promise<TournamentDetail | null> {
  const [row] = await db
    .select({ tournament: tournaments, entrants: entrantCount, joined: joinedBy(viewerId) })
    .from(tournaments)
    .where(eq(tournaments.id, id));
  if (!row) return null;
  const { tournament } = row;
  const entrants = Number(row.entrants);
  const entries = await db
    .select({
      id: users.id,
      username: users.username,
      place: tournamentEntries.place,
      prizeCents: tournamentEntries.prizeCents,
    })
    .from(tournamentEntries)
    .innerJoin(users, eq(users.id, tournamentEntries.userId))
    .where(
      and(
        eq(tournamentEntries.tournamentId, id),
        inArray(tournamentEntries.status, ['entered', 'refunded']),
      ),
    )
    .orderBy(asc(tournamentEntries.place), asc(tournamentEntries.id));
  const matches = await db
    .select({
      match: tournamentMatches,
      aName: playerA.username,
      bName: playerB.username,
      // A no-show claim the other player answered with evidence waits for an admin instead.
      answered: sql<boolean>`exists (select 1 from tournament_match_evidence e
        where e.match_id = ${tournamentMatches.id}
          and e.user_id <> ${tournamentMatches.noShowClaimedBy})`,
    })
    .from(tournamentMatches)
    .leftJoin(playerA, eq(playerA.id, tournamentMatches.playerAId))
    .leftJoin(playerB, eq(playerB.id, tournamentMatches.playerBId))
    .where(eq(tournamentMatches.tournamentId, id))
    .orderBy(asc(tournamentMatches.round), asc(tournamentMatches.slot));
  return {
    ...summaryOf(tournament, entrants, row.joined),
    seed: tournament.seed,
    winnerId: tournament.winnerId,
    rounds: tournament.status === 'open' ? 0 : roundsOf(bracketSize(Math.max(entrants, 2))),
    entries: entries.map((entry) => ({
      id: entry.id,
      username: entry.username,
      place: entry.place,
      prize: entry.prizeCents === null ? null : centsToDollarNumber(entry.prizeCents),
    })),
    matches: matches.map(({ match, aName, bName, answered }): TournamentMatchView => ({
      id: match.id,
      round: match.round,
      slot: match.slot,
      playerA: match.playerAId === null ? null : { id: match.playerAId, username: aName ?? '' },
      playerB: match.playerBId === null ? null : { id: match.playerBId, username: bName ?? '' },
      status: match.status,
      winnerId: match.winnerId,
      scoreA: match.scoreA,
      scoreB: match.scoreB,
      reportedBy: match.reportedBy,
      reviewEndsAt: match.reviewEndsAt?.toISOString() ?? null,
      deadlineAt:
        tournament.status === 'live' && !answered
          ? (matchDeadline(match, env)?.toISOString() ?? null)
          : null,
      disputeReason: match.disputeReason,
      standCause: match.standCause,
    })),
  };
}

/**
 * The disputed matches of live tournaments, oldest report first, each with both sides' evidence:
 * the admins' queue beside the challenges' disputes (decision 0020).
 */
export async function listTournamentDisputes(db: Executor): Promise<AdminTournamentDispute[]> {
  const rows = await db
    .select({
      tournament: tournaments,
      entrants: entrantCount,
      match: tournamentMatches,
      aName: playerA.username,
      bName: playerB.username,
    })
    .from(tournamentMatches)
    .innerJoin(tournaments, eq(tournaments.id, tournamentMatches.tournamentId))
    .innerJoin(playerA, eq(playerA.id, tournamentMatches.playerAId))
    .innerJoin(playerB, eq(playerB.id, tournamentMatches.playerBId))
    .where(and(eq(tournamentMatches.status, 'disputed'), eq(tournaments.status, 'live')))
    .orderBy(asc(tournamentMatches.reportedAt), asc(tournamentMatches.id))
    .limit(TOURNAMENT_DISPUTES_MAX);
  const evidence = await evidenceOfMatches(
    db,
    rows.map((row) => row.match.id),
  );
  return rows.map(({ tournament, entrants, match, aName, bName }) => {
    // The inner joins on both players found them.
    if (match.playerAId === null || match.playerBId === null)
      throw new Error(`disputed match ${match.id} lacks a player`);
    return {
      tournamentId: tournament.id,
      game: tournament.game,
      console: tournament.console,
      rounds: roundsOf(bracketSize(Math.max(Number(entrants), 2))),
      matchId: match.id,
      round: match.round,
      playerA: { id: match.playerAId, username: aName },
      playerB: { id: match.playerBId, username: bName },
      scoreA: match.scoreA,
      scoreB: match.scoreB,
      reportedBy: match.reportedBy,
      reportedAt: match.reportedAt?.toISOString() ?? null,
      noShowClaimedBy: match.noShowClaimedBy,
      disputeReason: match.disputeReason,
      screenshotUrl: match.screenshotUrl,
      notes: match.notes,
      evidence: evidence.get(match.id) ?? [],
    };
  });
}
