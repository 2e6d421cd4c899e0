import { and, eq } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import {
  tournamentMatches,
  tournaments,
  type MatchStandCause,
  type Tournament,
  type TournamentMatch,
} from '../../db/schema/tournaments.ts';
import { type UnitOfWork } from '../../db/transaction.ts';
import { notify } from '../notifications/index.ts';
import { announce, enteredOf } from './entries.ts';
import { entriesBarredAt, withdrawEntriesLocked } from './withdrawals.ts';
import {
  bracketSize,
  firstRound,
  newSeed,
  nextPosition,
  roundsOf,
  seededOrder,
} from './bracket.ts';
import { cancelLocked } from './service.ts';
import { payOutLocked } from './prize-payout.ts';

/**
 * How a bracket moves: its start (the draw and round 1) and each result that stands, which sends
 * its winner to the next round or, after the final, to the payout.
 */

async function matchAt(
  db: Executor,
  tournamentId: number,
  round: number,
  slot: number,
): Promise<TournamentMatch> {
  const [row] = await db
    .select()
    .from(tournamentMatches)
    .where(
      and(
        eq(tournamentMatches.tournamentId, tournamentId),
        eq(tournamentMatches.round, round),
        eq(tournamentMatches.slot, slot),
      ),
    );
  if (!row) throw new Error(`tournament ${tournamentId} has no match ${round}/${slot}`);
  return row;
}

async function announceMatch(
  ctx: AppContext,
  uow: UnitOfWork,
  tournament: Tournament,
  match: TournamentMatch,
): Promise<void> {
  const { playerAId, playerBId } = match;
  if (playerAId === null || playerBId === null) return;
  for (const userId of [playerAId, playerBId]) {
    await notify(uow, ctx.bus, {
      userId,
      kind: 'tournament_match',
      title: `Tournament #${tournament.id}: your round ${match.round} match is on`,
      body:
        `Your next match in the ${tournament.game} tournament #${tournament.id} (round ` +
        `${match.round}) is ready. Play it and report the result on the tournament page.`,
      dedupeKey: `tournament-match:${match.id}:${userId}`,
    });
  }
}

/**
 * The result of a match stands: the match is done and its winner goes on, to the next round's
 * match (which begins once both its players are known) or, after the final, to the payout.
 */
export async function standLocked(
  ctx: AppContext,
  uow: UnitOfWork,
  tournament: Tournament,
  match: TournamentMatch,
  winnerId: number,
  cause: MatchStandCause,
): Promise<void> {
  const now = ctx.clock();
  await uow.tx
    .update(tournamentMatches)
    .set({ status: 'done', winnerId, stoodAt: now, standCause: cause })
    .where(eq(tournamentMatches.id, match.id));
  const rounds = roundsOf(bracketSize((await enteredOf(uow.tx, tournament.id)).length));
  if (match.round === rounds) {
    await payOutLocked(ctx, uow, tournament, winnerId);
    return;
  }
  const position = nextPosition(match.slot);
  const next = await matchAt(uow.tx, tournament.id, match.round + 1, position.slot);
  const filled = {
    ...next,
    ...(position.side === 'a' ? { playerAId: winnerId } : { playerBId: winnerId }),
  };
  const ready = filled.playerAId !== null && filled.playerBId !== null;
  await uow.tx
    .update(tournamentMatches)
    .set({
      playerAId: filled.playerAId,
      playerBId: filled.playerBId,
      ...(ready ? { status: 'playing' as const, readyAt: now } : {}),
    })
    .where(eq(tournamentMatches.id, next.id));
  if (ready) await announceMatch(ctx, uow, tournament, filled);
  announce(ctx, uow, tournament, 'live');
}

/**
 * Starts a tournament whose start time has come (the caller holds its lock). Players who may not
 * play for money now (suspended, or on a break taken since they joined) are withdrawn first, with
 * their fees refunded. Then, full, or with byes allowed and two players or more, it is drawn from
 * a new recorded seed and round 1 begins; otherwise it is cancelled and refunded.
 */
export async function startLocked(
  ctx: AppContext,
  uow: UnitOfWork,
  tournament: Tournament,
): Promise<'started' | 'cancelled'> {
  const barred = await entriesBarredAt(
    uow,
    tournament,
    await enteredOf(uow.tx, tournament.id),
    ctx.clock(),
  );
  await withdrawEntriesLocked(ctx, uow, barred);
  const entered = await enteredOf(uow.tx, tournament.id);
  const full = entered.length === tournament.size;
  if (!full && !(tournament.allowByes && entered.length >= 2)) {
    await cancelLocked(ctx, uow, tournament, 'not_full');
    return 'cancelled';
  }
  const now = ctx.clock();
  const seed = newSeed();
  const drawn = seededOrder(
    entered.map((entry) => entry.userId),
    seed,
  );
  const width = bracketSize(drawn.length);
  const rounds = roundsOf(width);
  await uow.tx
    .update(tournaments)
    .set({ status: 'live', seed, startedAt: now, updatedAt: now })
    .where(eq(tournaments.id, tournament.id));
  const live = { ...tournament, status: 'live' as const, seed };
  const later = [];
  for (let round = 2; round <= rounds; round += 1) {
    for (let slot = 0; slot < width / 2 ** round; slot += 1) {
      later.push({ tournamentId: tournament.id, round, slot });
    }
  }
  if (later.length > 0) await uow.tx.insert(tournamentMatches).values(later);
  const first = await uow.tx
    .insert(tournamentMatches)
    .values(
      firstRound(drawn).map((match) => ({
        tournamentId: tournament.id,
        round: 1,
        slot: match.slot,
        playerAId: match.playerAId,
        playerBId: match.playerBId,
        status: match.playerBId === null ? ('waiting' as const) : ('playing' as const),
        readyAt: match.playerBId === null ? null : now,
      })),
    )
    .returning();
  for (const match of first) {
    if (match.playerBId !== null) await announceMatch(ctx, uow, live, match);
  }
  // A bye's player goes through at once, as if they had won.
  for (const match of first) {
    if (match.playerBId === null && match.playerAId !== null)
      await standLocked(ctx, uow, live, match, match.playerAId, 'bye');
  }
  announce(ctx, uow, tournament, 'live');
  return 'started';
}
