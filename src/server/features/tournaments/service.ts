import { and, asc, eq, inArray, isNotNull, lte, sql, type SQL } from 'drizzle-orm';
import { CHALLENGE_MESSAGES, WINNER_FEE_BASIS_POINTS } from '#shared/contracts/challenges.ts';
import {
  DEFAULT_PRIZE_SPLIT,
  TOURNAMENT_MESSAGES,
  TOURNAMENT_START_MAX_DAYS,
  type createTournamentBodySchema,
} from '#shared/contracts/tournaments.ts';
import { dollars, formatCents, percentOf } from '#shared/money.ts';
import type { z } from '#shared/validation.ts';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import {
  tournamentEntries,
  tournamentMatchEvidence,
  tournamentMatches,
  tournaments,
  type MatchStandCause,
  type Tournament,
  type TournamentCancelCause,
  type TournamentMatch,
} from '../../db/schema/tournaments.ts';
import { inTransaction, type UnitOfWork } from '../../db/transaction.ts';
import { users } from '../../db/schema/users.ts';
import { AppError } from '../../errors.ts';
import { formatUtc } from '../../lib/format-time.ts';
import { recordAudit } from '../audit/audit-log.ts';
import {
  answerToReport,
  mayStillDispute,
  noShowAllowedAt,
  reportedScoresReason,
} from '../challenges/match-rules.ts';
import { payeeAccount } from '../challenges/review.ts';
import { winnerOf } from '../challenges/settlement.ts';
import { HOUSE_FEES, tournamentEscrow, userWallet } from '../ledger/accounts.ts';
import type { Entry } from '../ledger/ledger.ts';
import { notify } from '../notifications/notify.ts';
import { requireCashPlayAllowed } from '../users/suspension.ts';
import { announce, enteredOf, refundEntry } from './entries.ts';
import { entriesBarredAt, withdrawEntriesLocked } from './withdrawals.ts';
import {
  bracketSize,
  firstRound,
  newSeed,
  nextPosition,
  placePrizes,
  roundsOf,
  seededOrder,
} from './bracket.ts';

export type CreateTournamentInput = z.output<typeof createTournamentBodySchema>;

const DAY_MS = 86_400_000;

export async function lockTournament(db: Executor, id: number): Promise<Tournament | undefined> {
  const [row] = await db
    .select()
    .from(tournaments)
    .where(eq(tournaments.id, id))
    .limit(1)
    .for('update');
  return row;
}

export async function findTournamentMatch(
  db: Executor,
  id: number,
): Promise<TournamentMatch | undefined> {
  const [row] = await db.select().from(tournamentMatches).where(eq(tournamentMatches.id, id));
  return row;
}

/** Runs `work` with the tournament locked: every change to it, its entries and its matches does. */
function onTournament<T>(
  ctx: AppContext,
  id: number,
  work: (uow: UnitOfWork, tournament: Tournament) => Promise<T>,
): Promise<T> {
  return inTransaction(ctx.db, async (uow) => {
    const tournament = await lockTournament(uow.tx, id);
    if (!tournament) throw new AppError('NOT_FOUND', TOURNAMENT_MESSAGES.notFound);
    return work(uow, tournament);
  });
}

export async function createTournament(
  ctx: AppContext,
  adminId: number,
  input: CreateTournamentInput,
): Promise<number> {
  const startsAt = new Date(input.startsAt);
  const now = ctx.clock();
  if (startsAt <= now) {
    throw new AppError('VALIDATION_FAILED', TOURNAMENT_MESSAGES.startsAtPast, {
      fields: { startsAt: TOURNAMENT_MESSAGES.startsAtPast },
    });
  }
  if (startsAt.getTime() - now.getTime() > TOURNAMENT_START_MAX_DAYS * DAY_MS) {
    throw new AppError('VALIDATION_FAILED', TOURNAMENT_MESSAGES.startsAtFar, {
      fields: { startsAt: TOURNAMENT_MESSAGES.startsAtFar },
    });
  }
  return inTransaction(ctx.db, async (uow) => {
    const [row] = await uow.tx
      .insert(tournaments)
      .values({
        game: input.game,
        console: input.console,
        entryFeeCents: dollars(input.entryFee),
        size: input.size,
        startsAt,
        prizeSplit: [...(input.prizeSplit ?? DEFAULT_PRIZE_SPLIT)],
        allowByes: input.allowByes ?? false,
        createdBy: adminId,
      })
      .returning({ id: tournaments.id });
    if (!row) throw new Error('the tournament insert returned nothing');
    await recordAudit(uow.tx, {
      actorUserId: adminId,
      action: 'tournament.create',
      target: { type: 'tournament', id: row.id },
      details: { game: input.game, entryFee: input.entryFee, size: input.size },
    });
    announce(ctx, uow, row, 'open');
    return row.id;
  });
}

/**
 * Takes a place and moves the entry fee from the player's wallet to the tournament's escrow in
 * one transaction, with the tournament locked: of several players racing for the last place,
 * one gets it and the others are refused before anything is charged.
 */
export async function joinTournament(ctx: AppContext, id: number, userId: number): Promise<void> {
  await onTournament(ctx, id, async (uow, tournament) => {
    const now = ctx.clock();
    if (tournament.status !== 'open' || now >= tournament.startsAt)
      throw new AppError('TOURNAMENT_NOT_OPEN', TOURNAMENT_MESSAGES.notOpen);
    await requireCashPlayAllowed(uow.tx, userId, now);
    const entered = await enteredOf(uow.tx, id);
    if (entered.some((entry) => entry.userId === userId))
      throw new AppError('CONFLICT', TOURNAMENT_MESSAGES.alreadyJoined);
    if (entered.length >= tournament.size)
      throw new AppError('TOURNAMENT_FULL', TOURNAMENT_MESSAGES.full);
    const [entry] = await uow.tx
      .insert(tournamentEntries)
      .values({ tournamentId: id, userId, joinedAt: now })
      .returning({ id: tournamentEntries.id });
    if (!entry) throw new Error('the entry insert returned nothing');
    await ctx.ledger.post(uow, {
      idempotencyKey: `tournament:join:${entry.id}`,
      kind: 'stake',
      reference: { type: 'tournament', id },
      entries: [
        { account: userWallet(userId), direction: 'debit', amountCents: tournament.entryFeeCents },
        {
          account: tournamentEscrow(id),
          direction: 'credit',
          amountCents: tournament.entryFeeCents,
        },
      ],
    });
    announce(ctx, uow, tournament, tournament.status);
  });
}

/** A player gives up their place before the start: the fee comes back. */
export async function leaveTournament(ctx: AppContext, id: number, userId: number): Promise<void> {
  await onTournament(ctx, id, async (uow, tournament) => {
    const now = ctx.clock();
    if (tournament.status !== 'open' || now >= tournament.startsAt)
      throw new AppError('TOURNAMENT_NOT_OPEN', TOURNAMENT_MESSAGES.leaveStarted);
    const entry = (await enteredOf(uow.tx, id)).find((row) => row.userId === userId);
    if (!entry) throw new AppError('CONFLICT', TOURNAMENT_MESSAGES.notJoined);
    await uow.tx
      .update(tournamentEntries)
      .set({ status: 'left', leftAt: now })
      .where(eq(tournamentEntries.id, entry.id));
    await refundEntry(ctx, uow, tournament, entry, `tournament:leave:${entry.id}`);
    announce(ctx, uow, tournament, tournament.status);
  });
}

/** Refunds every entry of a tournament that will not be played (further), and cancels it. */
async function cancelLocked(
  ctx: AppContext,
  uow: UnitOfWork,
  tournament: Tournament,
  cause: TournamentCancelCause,
): Promise<void> {
  const now = ctx.clock();
  for (const entry of await enteredOf(uow.tx, tournament.id)) {
    await uow.tx
      .update(tournamentEntries)
      .set({ status: 'refunded' })
      .where(eq(tournamentEntries.id, entry.id));
    await refundEntry(ctx, uow, tournament, entry, `tournament:refund:${entry.id}`);
    await notify(uow, ctx.bus, {
      userId: entry.userId,
      kind: 'tournament_cancelled',
      title: `Tournament #${tournament.id} was cancelled: your entry fee is back`,
      body:
        `The ${tournament.game} tournament #${tournament.id} was cancelled ` +
        `${cause === 'not_full' ? 'because it was not full at its start' : 'by an admin'}, ` +
        `so your entry fee of ${formatCents(tournament.entryFeeCents)} was refunded.`,
      dedupeKey: `tournament-cancelled:${entry.id}`,
    });
  }
  await uow.tx
    .update(tournaments)
    .set({ status: 'cancelled', cancelCause: cause, endedAt: now, updatedAt: now })
    .where(eq(tournaments.id, tournament.id));
  announce(ctx, uow, tournament, 'cancelled');
}

/** An admin calls a tournament off before it finishes: every entry fee is refunded. */
export async function cancelTournament(
  ctx: AppContext,
  id: number,
  adminId: number,
): Promise<void> {
  await onTournament(ctx, id, async (uow, tournament) => {
    if (tournament.status === 'finished' || tournament.status === 'cancelled')
      throw new AppError('CONFLICT', TOURNAMENT_MESSAGES.cannotCancel);
    await cancelLocked(ctx, uow, tournament, 'admin');
    await recordAudit(uow.tx, {
      actorUserId: adminId,
      action: 'tournament.cancel',
      target: { type: 'tournament', id },
      details: { status: tournament.status },
    });
  });
}

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
async function standLocked(
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
 * The final's result stands: the pool minus the house's fee is paid by place in one transfer
 * from the escrow (DESIGN §13), which leaves it empty.
 */
async function payOutLocked(
  ctx: AppContext,
  uow: UnitOfWork,
  tournament: Tournament,
  championId: number,
): Promise<void> {
  const entered = await enteredOf(uow.tx, tournament.id);
  const width = bracketSize(entered.length);
  const poolCents = tournament.entryFeeCents * BigInt(entered.length);
  const feeCents = percentOf(poolCents, WINNER_FEE_BASIS_POINTS);
  const matches = await uow.tx
    .select()
    .from(tournamentMatches)
    .where(eq(tournamentMatches.tournamentId, tournament.id));
  const losers = matches.flatMap((match) => {
    if (match.playerAId === null || match.playerBId === null || match.winnerId === null) return [];
    const loser = match.winnerId === match.playerAId ? match.playerBId : match.playerAId;
    return [{ userId: loser, round: match.round }];
  });
  const prizes = placePrizes({
    netCents: poolCents - feeCents,
    split: tournament.prizeSplit,
    width,
    championId,
    losers,
  });
  // Deleted players' prizes go to the house's unclaimed account, which may then take several.
  const credits = new Map<string, bigint>([[HOUSE_FEES, feeCents]]);
  for (const prize of prizes) {
    if (prize.prizeCents === 0n) continue;
    const account = await payeeAccount(uow, prize.userId);
    credits.set(account, (credits.get(account) ?? 0n) + prize.prizeCents);
  }
  const entries: Entry[] = [
    { account: tournamentEscrow(tournament.id), direction: 'debit', amountCents: poolCents },
    ...[...credits].map(([account, amountCents]) => ({
      account,
      direction: 'credit' as const,
      amountCents,
    })),
  ];
  await ctx.ledger.post(uow, {
    idempotencyKey: `tournament:payout:${tournament.id}`,
    kind: 'prize',
    reference: { type: 'tournament', id: tournament.id },
    entries,
  });
  const now = ctx.clock();
  for (const prize of prizes) {
    await uow.tx
      .update(tournamentEntries)
      .set({ place: prize.place, prizeCents: prize.prizeCents })
      .where(
        and(
          eq(tournamentEntries.tournamentId, tournament.id),
          eq(tournamentEntries.userId, prize.userId),
          eq(tournamentEntries.status, 'entered'),
        ),
      );
    await notify(uow, ctx.bus, {
      userId: prize.userId,
      kind: 'tournament_finished',
      title:
        prize.prizeCents > 0n
          ? `Tournament #${tournament.id}: you won ${formatCents(prize.prizeCents)}`
          : `Tournament #${tournament.id} is over`,
      body:
        `The ${tournament.game} tournament #${tournament.id} is over: you finished in place ` +
        `${prize.place}` +
        (prize.prizeCents > 0n
          ? `, and ${formatCents(prize.prizeCents)} is in your wallet.`
          : '. Thanks for playing.'),
      dedupeKey: `tournament-finished:${tournament.id}:${prize.userId}`,
    });
  }
  await uow.tx
    .update(tournaments)
    .set({
      status: 'finished',
      winnerId: championId,
      poolCents,
      feeCents,
      endedAt: now,
      updatedAt: now,
    })
    .where(eq(tournaments.id, tournament.id));
  announce(ctx, uow, tournament, 'finished');
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

/** A player's action on their match: 404 for another tournament's, 403 for anyone else. */
function onPlayersMatch<T>(
  ctx: AppContext,
  tournamentId: number,
  matchId: number,
  userId: number | null,
  work: (uow: UnitOfWork, tournament: Tournament, match: TournamentMatch) => Promise<T>,
): Promise<T> {
  return onTournament(ctx, tournamentId, async (uow, tournament) => {
    const [match] = await uow.tx
      .select()
      .from(tournamentMatches)
      .where(
        and(eq(tournamentMatches.id, matchId), eq(tournamentMatches.tournamentId, tournamentId)),
      );
    if (!match) throw new AppError('NOT_FOUND', TOURNAMENT_MESSAGES.matchNotFound);
    if (userId !== null && userId !== match.playerAId && userId !== match.playerBId)
      throw new AppError('NOT_PARTICIPANT', TOURNAMENT_MESSAGES.notPlayer);
    if (tournament.status !== 'live' && userId !== null)
      throw new AppError('CONFLICT', TOURNAMENT_MESSAGES.matchNotReady);
    return work(uow, tournament, match);
  });
}

function opponentIn(match: TournamentMatch, userId: number): number | null {
  if (userId === match.playerAId) return match.playerBId;
  if (userId === match.playerBId) return match.playerAId;
  return null;
}

async function disputeLocked(
  ctx: AppContext,
  uow: UnitOfWork,
  tournament: Tournament,
  match: TournamentMatch,
  userId: number,
  reason: string,
): Promise<void> {
  await uow.tx
    .update(tournamentMatches)
    .set({ status: 'disputed', disputeReason: reason })
    .where(eq(tournamentMatches.id, match.id));
  if (match.reportedBy !== null) {
    await notify(uow, ctx.bus, {
      userId: match.reportedBy,
      kind: 'tournament_result',
      title: `Tournament #${tournament.id}: your result is disputed`,
      body:
        `Your opponent disputed the result of your round ${match.round} match in tournament ` +
        `#${tournament.id}: ${reason}. An admin will decide who goes on.`,
      dedupeKey: `tournament-disputed:${match.id}:${userId}`,
    });
  }
  announce(ctx, uow, tournament, tournament.status);
}

export interface MatchSubmission {
  creatorScore: number;
  acceptorScore: number;
  screenshot: string;
  notes?: string | undefined;
  disputeReason?: string | undefined;
}

/**
 * A player reports the scores of their match, as on a challenge (DESIGN §10, §13): the first
 * player's score is the challenge's creator's, the second's the acceptor's, and ties go to the
 * second player. The result waits `TOURNAMENT_REVIEW_MINUTES` for the opponent; the opponent's
 * own report during the review agrees with it or disputes it.
 */
export async function submitMatch(
  ctx: AppContext,
  tournamentId: number,
  matchId: number,
  userId: number,
  submission: MatchSubmission,
): Promise<void> {
  await onPlayersMatch(ctx, tournamentId, matchId, userId, async (uow, tournament, match) => {
    const { playerAId, playerBId } = match;
    if (playerAId === null || playerBId === null)
      throw new AppError('CONFLICT', TOURNAMENT_MESSAGES.matchNotReady);
    const claimed = winnerOf(submission, { creatorId: playerAId, acceptorId: playerBId });
    const now = ctx.clock();
    if (match.status === 'reported' && match.reportedBy !== userId) {
      if (answerToReport(match.winnerId, claimed, submission.disputeReason) === 'agreed') {
        await standLocked(ctx, uow, tournament, match, claimed, 'agreed');
        return;
      }
      if (!mayStillDispute(match.reviewEndsAt, now))
        throw new AppError('CONFLICT', TOURNAMENT_MESSAGES.disputeNotAllowed);
      await disputeLocked(
        ctx,
        uow,
        tournament,
        match,
        userId,
        submission.disputeReason ??
          reportedScoresReason(submission.creatorScore, submission.acceptorScore),
      );
      return;
    }
    if (match.status !== 'playing') {
      throw new AppError(
        'CONFLICT',
        match.status === 'waiting'
          ? TOURNAMENT_MESSAGES.matchNotReady
          : TOURNAMENT_MESSAGES.alreadyReported,
      );
    }
    const disputed = submission.disputeReason !== undefined;
    const reviewEndsAt = new Date(now.getTime() + ctx.env.TOURNAMENT_REVIEW_MINUTES * 60_000);
    await uow.tx
      .update(tournamentMatches)
      .set({
        status: disputed ? 'disputed' : 'reported',
        winnerId: claimed,
        scoreA: submission.creatorScore,
        scoreB: submission.acceptorScore,
        screenshotUrl: submission.screenshot,
        notes: submission.notes ?? null,
        disputeReason: submission.disputeReason ?? null,
        reportedBy: userId,
        reportedAt: now,
        reviewEndsAt: disputed ? null : reviewEndsAt,
      })
      .where(eq(tournamentMatches.id, match.id));
    const opponent = opponentIn(match, userId);
    if (!disputed && opponent !== null) {
      await notify(uow, ctx.bus, {
        userId: opponent,
        kind: 'tournament_result',
        title: `Tournament #${tournament.id}: a result was reported`,
        body:
          `Your opponent reported ${submission.creatorScore}–${submission.acceptorScore} on your ` +
          `round ${match.round} match in tournament #${tournament.id}. Confirm or dispute it ` +
          `before ${formatUtc(reviewEndsAt)}; after that it stands.`,
        dedupeKey: `tournament-reported:${match.id}`,
      });
    }
    announce(ctx, uow, tournament, tournament.status);
  });
}

/** The opponent stands behind the reported result: the winner goes on now. */
export async function confirmMatch(
  ctx: AppContext,
  tournamentId: number,
  matchId: number,
  userId: number,
): Promise<void> {
  await onPlayersMatch(ctx, tournamentId, matchId, userId, async (uow, tournament, match) => {
    if (match.status === 'disputed')
      throw new AppError('CONFLICT', TOURNAMENT_MESSAGES.confirmDisputed);
    if (match.status !== 'reported' || match.winnerId === null)
      throw new AppError('CONFLICT', TOURNAMENT_MESSAGES.nothingToConfirm);
    if (match.reportedBy === userId)
      throw new AppError('FORBIDDEN', TOURNAMENT_MESSAGES.confirmOwnReport);
    await standLocked(ctx, uow, tournament, match, match.winnerId, 'confirmed');
  });
}

/** The opponent contests the reported result while its review runs: an admin decides. */
export async function disputeMatch(
  ctx: AppContext,
  tournamentId: number,
  matchId: number,
  userId: number,
  reason: string,
): Promise<void> {
  await onPlayersMatch(ctx, tournamentId, matchId, userId, async (uow, tournament, match) => {
    if (match.status !== 'reported' || !mayStillDispute(match.reviewEndsAt, ctx.clock()))
      throw new AppError('CONFLICT', TOURNAMENT_MESSAGES.disputeNotAllowed);
    if (match.reportedBy === userId)
      throw new AppError('FORBIDDEN', TOURNAMENT_MESSAGES.disputeOwnReport);
    await disputeLocked(ctx, uow, tournament, match, userId, reason);
  });
}

/**
 * A player says the opponent never came, `NO_SHOW_MINUTES` after the match began: it goes to
 * the admins as a dispute with the reason No-show. The opponent is told by when to answer with
 * evidence: a claim left unanswered goes to the claimant at the match's time limit
 * (`matchDeadline`).
 */
export async function claimMatchNoShow(
  ctx: AppContext,
  tournamentId: number,
  matchId: number,
  userId: number,
): Promise<void> {
  await onPlayersMatch(ctx, tournamentId, matchId, userId, async (uow, tournament, match) => {
    if (match.status !== 'playing' || match.readyAt === null)
      throw new AppError('CONFLICT', TOURNAMENT_MESSAGES.matchNotReady);
    const now = ctx.clock();
    if (now < noShowAllowedAt(match.readyAt, ctx.env.NO_SHOW_MINUTES))
      throw new AppError('CONFLICT', TOURNAMENT_MESSAGES.noShowTooEarly);
    await uow.tx
      .update(tournamentMatches)
      .set({
        status: 'disputed',
        disputeReason: CHALLENGE_MESSAGES.noShowReason,
        noShowClaimedBy: userId,
        reportedBy: userId,
        reportedAt: now,
      })
      .where(eq(tournamentMatches.id, match.id));
    const opponent = opponentIn(match, userId);
    const answerBy = matchDeadline(
      { status: 'disputed', readyAt: match.readyAt, noShowClaimedBy: userId, reportedAt: now },
      ctx.env,
    );
    if (opponent !== null && answerBy !== null) {
      await notify(uow, ctx.bus, {
        userId: opponent,
        kind: 'tournament_result',
        title: `Tournament #${tournament.id}: your opponent reported a no-show`,
        body:
          `Your opponent says you did not show up for your round ${match.round} match in ` +
          `tournament #${tournament.id}. Add your evidence on the tournament page before ` +
          `${formatUtc(answerBy)} and an admin will decide who goes on; without it, your ` +
          `opponent goes on then.`,
        dedupeKey: `tournament-no-show:${match.id}`,
      });
    }
    announce(ctx, uow, tournament, tournament.status);
  });
}

/** An admin decides a disputed match: the chosen player goes on. */
export async function resolveMatch(
  ctx: AppContext,
  tournamentId: number,
  matchId: number,
  adminId: number,
  winnerId: number,
): Promise<void> {
  await onPlayersMatch(ctx, tournamentId, matchId, null, async (uow, tournament, match) => {
    if (tournament.status !== 'live' || match.status !== 'disputed')
      throw new AppError('CHALLENGE_NOT_DISPUTED', TOURNAMENT_MESSAGES.notDisputed);
    if (winnerId !== match.playerAId && winnerId !== match.playerBId) {
      throw new AppError('VALIDATION_FAILED', TOURNAMENT_MESSAGES.winnerNotPlayer, {
        fields: { winnerId: TOURNAMENT_MESSAGES.winnerNotPlayer },
      });
    }
    await recordAudit(uow.tx, {
      actorUserId: adminId,
      action: 'tournament.resolve',
      target: { type: 'tournament', id: tournamentId },
      details: { matchId, winnerId, reportedWinnerId: match.winnerId },
    });
    for (const userId of [match.playerAId, match.playerBId]) {
      if (userId === null) continue;
      await notify(uow, ctx.bus, {
        userId,
        kind: 'tournament_result',
        title: `Tournament #${tournamentId}: the dispute was decided`,
        body:
          `An admin decided your round ${match.round} match in tournament #${tournamentId}: ` +
          `${userId === winnerId ? 'you go on to the next round' : 'your opponent goes on'}.`,
        dedupeKey: `tournament-decided:${match.id}:${userId}`,
      });
    }
    await standLocked(ctx, uow, tournament, match, winnerId, 'decided');
  });
}

/** Tournaments and results claimed by one worker pass at most; a full batch means more. */
export const TOURNAMENT_BATCH = 25;

/**
 * Claims one tournament whose start time has come with `SKIP LOCKED` and starts or cancels it
 * in the claim's transaction: instances running this at once take different ones, and a crash
 * leaves it either started or still due.
 */
async function startOneDue(ctx: AppContext, now: Date): Promise<boolean> {
  return inTransaction(ctx.db, async (uow) => {
    const [due] = await uow.tx
      .select()
      .from(tournaments)
      .where(and(eq(tournaments.status, 'open'), lte(tournaments.startsAt, now)))
      .orderBy(asc(tournaments.startsAt))
      .limit(1)
      .for('update', { skipLocked: true });
    if (!due) return false;
    await startLocked(ctx, uow, due);
    return true;
  });
}

/**
 * Claims one live tournament that has a match meeting `condition` (written over a match row
 * named by its argument), skipping those another worker holds, and reads those matches in
 * bracket order. Every change to a tournament's matches holds the tournament's lock, so what the
 * caller decides for them is decided once.
 */
async function claimLiveTournamentWith(
  uow: UnitOfWork,
  condition: (match: SQL) => SQL,
): Promise<{ tournament: Tournament; matches: TournamentMatch[] } | null> {
  const [tournament] = await uow.tx
    .select()
    .from(tournaments)
    .where(
      and(
        eq(tournaments.status, 'live'),
        sql`exists (select 1 from ${tournamentMatches} m
          where m.tournament_id = "tournaments"."id" and ${condition(sql.raw('m'))})`,
      ),
    )
    .limit(1)
    .for('update', { skipLocked: true });
  if (!tournament) return null;
  const matches = await uow.tx
    .select()
    .from(tournamentMatches)
    .where(
      and(
        eq(tournamentMatches.tournamentId, tournament.id),
        condition(sql.raw('"tournament_matches"')),
      ),
    )
    .orderBy(asc(tournamentMatches.round), asc(tournamentMatches.slot));
  return { tournament, matches };
}

/**
 * Claims one live tournament with a result whose review has ended, and lets each such result
 * stand: every change to a tournament's matches holds the tournament's lock, so the worker and
 * a player's confirm never both advance the same winner.
 */
async function standOneDue(ctx: AppContext, now: Date): Promise<boolean> {
  const reviewEnded = (m: SQL) =>
    sql`${m}.status = 'reported' and ${m}.review_ends_at <= ${now.toISOString()}::timestamptz`;
  return inTransaction(ctx.db, async (uow) => {
    const claimed = await claimLiveTournamentWith(uow, reviewEnded);
    if (!claimed) return false;
    const { tournament: due, matches: results } = claimed;
    for (const match of results) {
      if (match.winnerId !== null)
        await standLocked(ctx, uow, due, match, match.winnerId, 'review_ended');
    }
    return true;
  });
}

/**
 * When the time limit decides a match (decision 0020): `TOURNAMENT_MATCH_MINUTES` after both its
 * players were known, and for a no-show claim never sooner than `NO_SHOW_MINUTES` after it, so
 * that the other player has time to answer it. Null for a match the time limit leaves alone.
 */
export function matchDeadline(
  match: Pick<TournamentMatch, 'status' | 'readyAt' | 'noShowClaimedBy' | 'reportedAt'>,
  env: Pick<AppContext['env'], 'TOURNAMENT_MATCH_MINUTES' | 'NO_SHOW_MINUTES'>,
): Date | null {
  if (match.readyAt === null) return null;
  const limit = match.readyAt.getTime() + env.TOURNAMENT_MATCH_MINUTES * 60_000;
  if (match.status === 'playing') return new Date(limit);
  if (match.status !== 'disputed' || match.noShowClaimedBy === null || match.reportedAt === null)
    return null;
  return new Date(Math.max(limit, match.reportedAt.getTime() + env.NO_SHOW_MINUTES * 60_000));
}

/**
 * What the time limit decides for a match it found (decision 0020): an unanswered no-show claim
 * goes to the claimant; a match nobody played or claimed goes to its first player, the higher
 * seed (the one drawn earlier from the recorded seed), unless that player's account is closed
 * and the other's is not.
 */
async function timeLimitOutcome(
  db: Executor,
  match: TournamentMatch,
): Promise<{ winnerId: number; cause: 'no_show' | 'time_limit' }> {
  const { playerAId, playerBId, noShowClaimedBy } = match;
  if (playerAId === null || playerBId === null)
    throw new Error(`match ${match.id} has no two players`);
  if (noShowClaimedBy !== null) return { winnerId: noShowClaimedBy, cause: 'no_show' };
  const closed = await db
    .select({ id: users.id })
    .from(users)
    .where(and(inArray(users.id, [playerAId, playerBId]), isNotNull(users.deletedAt)));
  const closedIds = new Set(closed.map((row) => row.id));
  const winnerId = closedIds.has(playerAId) && !closedIds.has(playerBId) ? playerBId : playerAId;
  return { winnerId, cause: 'time_limit' };
}

const TIME_LIMIT_NEWS = {
  no_show: (won: boolean) =>
    won
      ? 'your opponent did not answer your no-show claim, so you go on'
      : 'you did not answer the no-show claim against you, so your opponent goes on',
  time_limit: (won: boolean) =>
    won
      ? 'nobody reported a result, so you go on'
      : 'nobody reported a result, so your opponent goes on',
} as const;

/**
 * Claims one live tournament with a match past its time limit (`TOURNAMENT_MATCH_MINUTES` after
 * both players were known) that nobody reported, and decides each such match by the time limit's
 * rule (`timeLimitOutcome`), telling both players. A disputed report, or a no-show claim the
 * other player answered, waits for an admin.
 */
async function decideOneUnplayed(ctx: AppContext, now: Date): Promise<boolean> {
  const readyBefore = new Date(now.getTime() - ctx.env.TOURNAMENT_MATCH_MINUTES * 60_000);
  const claimedBefore = new Date(now.getTime() - ctx.env.NO_SHOW_MINUTES * 60_000);
  // Unplayed, or claimed as a no-show that the other player has not answered with evidence
  // (`matchDeadline` in SQL).
  const unplayed = (m: SQL) => sql`${m}.ready_at <= ${readyBefore.toISOString()}::timestamptz
    and (${m}.status = 'playing' or (${m}.status = 'disputed' and ${m}.no_show_claimed_by is not null
      and ${m}.reported_at <= ${claimedBefore.toISOString()}::timestamptz
      and not exists (select 1 from ${tournamentMatchEvidence} e
        where e.match_id = ${m}.id and e.user_id <> ${m}.no_show_claimed_by)))`;
  return inTransaction(ctx.db, async (uow) => {
    const claimed = await claimLiveTournamentWith(uow, unplayed);
    if (!claimed) return false;
    const { tournament: due, matches } = claimed;
    for (const match of matches) {
      const outcome = await timeLimitOutcome(uow.tx, match);
      for (const userId of [match.playerAId, match.playerBId]) {
        if (userId === null) continue;
        await notify(uow, ctx.bus, {
          userId,
          kind: 'tournament_result',
          title: `Tournament #${due.id}: your round ${match.round} match ran out of time`,
          body:
            `Your round ${match.round} match in tournament #${due.id} was not played within ` +
            `${ctx.env.TOURNAMENT_MATCH_MINUTES} minutes: ` +
            `${TIME_LIMIT_NEWS[outcome.cause](userId === outcome.winnerId)}.`,
          dedupeKey: `tournament-time-limit:${match.id}:${userId}`,
        });
      }
      await standLocked(ctx, uow, due, match, outcome.winnerId, outcome.cause);
    }
    return true;
  });
}

export interface TournamentPass {
  started: number;
  stood: number;
  timedOut: number;
}

/**
 * One pass of the tournament worker: starts what is due, lets ended reviews stand, then decides
 * the matches past their time limit.
 */
export async function runTournamentPass(
  ctx: AppContext,
  batch = TOURNAMENT_BATCH,
): Promise<TournamentPass> {
  const pass: TournamentPass = { started: 0, stood: 0, timedOut: 0 };
  const now = ctx.clock();
  while (pass.started < batch && (await startOneDue(ctx, now))) pass.started += 1;
  while (pass.stood < batch && (await standOneDue(ctx, now))) pass.stood += 1;
  while (pass.timedOut < batch && (await decideOneUnplayed(ctx, now))) pass.timedOut += 1;
  return pass;
}
