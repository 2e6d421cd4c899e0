import { and, eq } from 'drizzle-orm';
import { WINNER_FEE_BASIS_POINTS } from '#shared/contracts/challenges.ts';
import { formatCents, percentOf } from '#shared/money.ts';
import type { AppContext } from '../../context.ts';
import {
  tournamentEntries,
  tournamentMatches,
  tournaments,
  type Tournament,
} from '../../db/schema/tournaments.ts';
import { type UnitOfWork } from '../../db/transaction.ts';
import { payeeAccount } from '../challenges/index.ts';
import { HOUSE_FEES, tournamentEscrow, type Entry } from '../ledger/index.ts';
import { notify } from '../notifications/index.ts';
import { announce, enteredOf } from './entries.ts';
import { bracketSize, placePrizes } from './bracket.ts';

/**
 * The final's result stands: the pool minus the house's fee is paid by place in one transfer
 * from the escrow (docs/tournaments.md), which leaves it empty.
 */
export async function payOutLocked(
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
