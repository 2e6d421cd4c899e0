import { desc, eq } from 'drizzle-orm';
import type { AccountExport } from '#shared/contracts/account-data.ts';
import type { Executor } from '../../db/client.ts';
import type { Notification } from '../../db/schema/notifications.ts';
import { payments } from '../../db/schema/payments.ts';
import type { Payout } from '../../db/schema/payouts.ts';
import type { User } from '../../db/schema/users.ts';
import {
  listChallengeRows,
  toChallengeView,
  type ChallengeRow,
} from '../../features/challenges/index.ts';
import { listNotifications, toNotificationView } from '../../features/notifications/index.ts';
import { listOwnPayouts, toPayoutView } from '../../features/payouts/index.ts';
import { loadPublicUser } from '../../features/accounts/index.ts';
import {
  listWalletMovements,
  toTransactionView,
  type WalletMovement,
} from '../../features/ledger/index.ts';
import { toPaymentRecord } from '../../features/payments/index.ts';

/** Rows read per statement: the lists are read whole, a page at a time, newest first. */
const PAGE = 500;

/** Every row of a list read by pages, each page starting below the last id of the one before. */
async function readAll<T, K>(
  page: (before: K | undefined) => Promise<T[]>,
  keyOf: (row: T) => K,
): Promise<T[]> {
  const all: T[] = [];
  let before: K | undefined;
  for (;;) {
    const rows = await page(before);
    all.push(...rows);
    const last = rows.at(-1);
    if (rows.length < PAGE || last === undefined) return all;
    before = keyOf(last);
  }
}

/**
 * Everything the player's export holds (docs/responsible-play.md), read in the caller's transaction
 * (a repeatable-read one, so that the balance, the transactions and the rest tell one story). Each
 * part is the view the app itself shows the player: the profile as `GET /api/user` shows it (no
 * password hash, two-factor secret or token), the challenges as a player of them sees them (an
 * admin's own export holds no other player's e-mail or balance), the wallet's movements, the
 * deposits, payouts and notifications. Every row, not a page: it is the player's whole record.
 */
export async function collectAccountData(
  tx: Executor,
  user: User,
  now: Date,
): Promise<AccountExport> {
  // As one of the players sees it, whatever the player's role: the export is their own record.
  const asPlayer: User = { ...user, isAdmin: false };
  const [profile, challengeRows, movements, paymentRows, payoutRows, notificationRows] = [
    await loadPublicUser(tx, user, now),
    await readAll<ChallengeRow, number>(
      (before) =>
        listChallengeRows(tx, {
          viewerId: user.id,
          role: 'mine',
          limit: PAGE,
          before,
          withBalances: false,
        }),
      (row) => row.challenge.id,
    ),
    await readAll<WalletMovement, bigint>(
      (before) =>
        listWalletMovements(tx, user.id, {
          limit: PAGE,
          ...(before === undefined ? {} : { beforePostingId: before }),
        }),
      (row) => row.postingId,
    ),
    await tx.select().from(payments).where(eq(payments.userId, user.id)).orderBy(desc(payments.id)),
    await readAll<Payout, number>(
      (before) => listOwnPayouts(tx, user.id, { limit: PAGE, before }),
      (row) => row.id,
    ),
    await readAll<Notification, number>(
      (before) => listNotifications(tx, user.id, { limit: PAGE, before }),
      (row) => Number(row.id),
    ),
  ];
  return {
    exportedAt: now.toISOString(),
    profile,
    challenges: challengeRows.map((row) => toChallengeView(row, asPlayer)),
    transactions: movements.map(toTransactionView),
    payments: paymentRows.map(toPaymentRecord),
    payouts: payoutRows.map(toPayoutView),
    notifications: notificationRows.map(toNotificationView),
  };
}
