import { eq } from 'drizzle-orm';
import {
  DEFAULT_PRIZE_SPLIT,
  TOURNAMENT_MESSAGES,
  TOURNAMENT_START_MAX_DAYS,
  type createTournamentBodySchema,
} from '#shared/contracts/tournaments.ts';
import { DEVICE_LINK_MESSAGES } from '#shared/contracts/account-security.ts';
import { dollars, formatCents } from '#shared/money.ts';
import type { z } from '#shared/validation.ts';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import {
  tournamentEntries,
  tournamentMatches,
  tournaments,
  type Tournament,
  type TournamentCancelCause,
  type TournamentMatch,
} from '../../db/schema/tournaments.ts';
import { inTransaction, type UnitOfWork } from '../../db/transaction.ts';
import { AppError } from '../../errors.ts';
import { recordAudit } from '../audit/index.ts';
import { tournamentEscrow, userWallet } from '../ledger/index.ts';
import { notify } from '../notifications/index.ts';
import { linkedAccountsOf, lockUser, requireCashPlayAllowed } from '../accounts/index.ts';
import { announce, enteredOf, refundEntry } from './entries.ts';
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
export function onTournament<T>(
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
    // Shared, so that a suspension or a card dispute's lock (which hold the row) comes wholly
    // before this entry or wholly after it, and then withdraws it.
    const standing = await lockUser(uow.tx, userId, 'share');
    if (!standing) throw new Error(`user ${userId} has a session but no row`);
    await requireCashPlayAllowed(uow.tx, userId, now, standing);
    const entered = await enteredOf(uow.tx, id);
    if (entered.some((entry) => entry.userId === userId))
      throw new AppError('CONFLICT', TOURNAMENT_MESSAGES.alreadyJoined);
    if (entered.length >= tournament.size)
      throw new AppError('TOURNAMENT_FULL', TOURNAMENT_MESSAGES.full);
    // Of two accounts that share a device, the second entry is refused.
    const linked = await linkedAccountsOf(uow.tx, userId, ctx.env.RISK_WINDOW_DAYS, now);
    if (entered.some((entry) => linked.includes(entry.userId)))
      throw new AppError('LINKED_ACCOUNTS', DEVICE_LINK_MESSAGES.linkedAccounts);
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
export async function cancelLocked(
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
