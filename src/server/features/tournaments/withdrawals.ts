import { and, asc, eq, inArray } from 'drizzle-orm';
import { formatCents } from '#shared/money.ts';
import type { AppContext } from '../../context.ts';
import {
  tournamentEntries,
  tournaments,
  type Tournament,
  type TournamentEntry,
} from '../../db/schema/tournaments.ts';
import { users } from '../../db/schema/users.ts';
import type { UnitOfWork } from '../../db/transaction.ts';
import { notify } from '../notifications/index.ts';
import { isSuspended, moneyLockOf, playBreakOf, STANDING_COLUMNS } from '../accounts/index.ts';
import { announce, refundEntry } from './entries.ts';

/** Why a player's place in a tournament not yet started was given up for them. */
export type WithdrawalCause = 'suspended' | 'play_break' | 'money_locked';

const BECAUSE: Record<WithdrawalCause, string> = {
  suspended: 'your account is suspended',
  play_break: 'you are taking a break from cash play',
  money_locked: 'a card payment of yours was disputed',
};

export interface HeldEntry {
  tournament: Tournament;
  entry: TournamentEntry;
}

export type Withdrawal = HeldEntry & { cause: WithdrawalCause };

/**
 * Locks the tournaments not yet started in which the player holds a place, in id order, and
 * answers those places. Taken before the player's own row, in the order a join or a leave takes
 * them (the tournament, then the player), so that a break or a suspension and a leave do not
 * wait on each other.
 */
export async function lockOpenEntriesOf(uow: UnitOfWork, userId: number): Promise<HeldEntry[]> {
  const open = await uow.tx
    .select({ id: tournaments.id })
    .from(tournamentEntries)
    .innerJoin(tournaments, eq(tournaments.id, tournamentEntries.tournamentId))
    .where(
      and(
        eq(tournamentEntries.userId, userId),
        eq(tournamentEntries.status, 'entered'),
        eq(tournaments.status, 'open'),
      ),
    )
    .orderBy(asc(tournaments.id));
  if (open.length === 0) return [];
  const locked = await uow.tx
    .select()
    .from(tournaments)
    .where(
      and(
        inArray(
          tournaments.id,
          open.map((row) => row.id),
        ),
        eq(tournaments.status, 'open'),
      ),
    )
    .orderBy(asc(tournaments.id))
    .for('update');
  // Read again under the locks: a leave may have ended a place meanwhile.
  const entries = await uow.tx
    .select()
    .from(tournamentEntries)
    .where(
      and(
        eq(tournamentEntries.userId, userId),
        eq(tournamentEntries.status, 'entered'),
        inArray(
          tournamentEntries.tournamentId,
          locked.map((row) => row.id),
        ),
      ),
    );
  return entries.flatMap((entry) => {
    const tournament = locked.find((row) => row.id === entry.tournamentId);
    return tournament ? [{ tournament, entry }] : [];
  });
}

/**
 * Gives up places in tournaments not yet started for a player who may no longer play for money
 * (docs/fair-play.md, docs/responsible-play.md): each entry leaves with its fee refunded from the
 * tournament's escrow, and the player is told why. The caller holds each tournament's lock
 * (`lockOpenEntriesOf`, or the start's own).
 */
export async function withdrawEntriesLocked(
  ctx: AppContext,
  uow: UnitOfWork,
  withdrawals: Withdrawal[],
): Promise<void> {
  const now = ctx.clock();
  for (const { tournament, entry, cause } of withdrawals) {
    await uow.tx
      .update(tournamentEntries)
      .set({ status: 'left', leftAt: now })
      .where(eq(tournamentEntries.id, entry.id));
    await refundEntry(ctx, uow, tournament, entry, `tournament:withdraw:${entry.id}`);
    await notify(uow, ctx.bus, {
      userId: entry.userId,
      kind: 'tournament_cancelled',
      title: `Tournament #${tournament.id}: your place was given up and your entry fee is back`,
      body:
        `Because ${BECAUSE[cause]}, your place in the ${tournament.game} tournament ` +
        `#${tournament.id} was given up before its start, and your entry fee of ` +
        `${formatCents(tournament.entryFeeCents)} was refunded.`,
      dedupeKey: `tournament-withdrawn:${entry.id}`,
    });
    announce(ctx, uow, tournament, tournament.status);
  }
}

/**
 * The entries of a tournament about to start whose players may not play for money now: a
 * suspension or a break that began after they joined. The start withdraws them before the draw.
 */
export async function entriesBarredAt(
  uow: UnitOfWork,
  tournament: Tournament,
  entered: TournamentEntry[],
  now: Date,
): Promise<Withdrawal[]> {
  if (entered.length === 0) return [];
  const standings = await uow.tx
    .select({ id: users.id, ...STANDING_COLUMNS })
    .from(users)
    .where(
      inArray(
        users.id,
        entered.map((entry) => entry.userId),
      ),
    );
  const causeOf = new Map<number, WithdrawalCause>();
  for (const standing of standings) {
    if (isSuspended(standing, now)) causeOf.set(standing.id, 'suspended');
    else if (playBreakOf(standing, now)) causeOf.set(standing.id, 'play_break');
    else if (moneyLockOf(standing)) causeOf.set(standing.id, 'money_locked');
  }
  return entered.flatMap((entry) => {
    const cause = causeOf.get(entry.userId);
    return cause ? [{ tournament, entry, cause }] : [];
  });
}
