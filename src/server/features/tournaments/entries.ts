import { and, asc, eq } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import {
  tournamentEntries,
  type Tournament,
  type TournamentEntry,
} from '../../db/schema/tournaments.ts';
import type { UnitOfWork } from '../../db/transaction.ts';
import { payeeAccount } from '../challenges/index.ts';
import { tournamentEscrow } from '../ledger/index.ts';

/** The places taken in a tournament, in the order they were taken. */
export async function enteredOf(db: Executor, tournamentId: number): Promise<TournamentEntry[]> {
  return db
    .select()
    .from(tournamentEntries)
    .where(
      and(
        eq(tournamentEntries.tournamentId, tournamentId),
        eq(tournamentEntries.status, 'entered'),
      ),
    )
    .orderBy(asc(tournamentEntries.id));
}

/** Tells every open page that the tournament changed, once the unit of work commits. */
export function announce(
  ctx: AppContext,
  uow: UnitOfWork,
  tournament: Pick<Tournament, 'id'>,
  status: string,
) {
  uow.afterCommit(() =>
    ctx.bus.publish({ type: 'tournament', tournamentId: tournament.id, status }),
  );
}

/** Gives an entry its fee back from the tournament's escrow, once per `key`. */
export async function refundEntry(
  ctx: AppContext,
  uow: UnitOfWork,
  tournament: Tournament,
  entry: TournamentEntry,
  key: string,
): Promise<void> {
  await ctx.ledger.post(uow, {
    idempotencyKey: key,
    kind: 'refund',
    reference: { type: 'tournament', id: tournament.id },
    entries: [
      {
        account: tournamentEscrow(tournament.id),
        direction: 'debit',
        amountCents: tournament.entryFeeCents,
      },
      {
        account: await payeeAccount(uow, entry.userId),
        direction: 'credit',
        amountCents: tournament.entryFeeCents,
      },
    ],
  });
}
