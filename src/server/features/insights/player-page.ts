import { desc, eq } from 'drizzle-orm';
import {
  INSIGHTS_MESSAGES,
  PLAYER_PAGE_ROWS,
  type AdminNoteView,
  type PlayerPage,
} from '#shared/contracts/insights.ts';
import type { AppContext } from '../../context.ts';
import { adminNotes } from '../../db/schema/admin-notes.ts';
import { payments } from '../../db/schema/payments.ts';
import { users } from '../../db/schema/users.ts';
import { inTransaction } from '../../db/transaction.ts';
import { AppError } from '../../errors.ts';
import {
  findLatestVerification,
  findUserById,
  deviceLinksOf,
  listSessions,
  loadPublicUser,
} from '../accounts/index.ts';
import { recordAudit } from '../audit/index.ts';
import {
  EMPTY_RECORD,
  findPlayerRecords,
  listChallengeRows,
  toChallengeView,
} from '../challenges/index.ts';
import { listOwnPayouts, toPayoutViewForAdmin } from '../payouts/index.ts';
import { responsibleGamingOf } from '../responsible-gaming/index.ts';
import { listWalletMovements, toTransactionView } from '../ledger/index.ts';
import type { Executor } from '../../db/client.ts';
import { toPaymentRecord } from '../payments/index.ts';

async function listNotes(db: Executor, userId: number): Promise<AdminNoteView[]> {
  const rows = await db
    .select({ note: adminNotes, authorName: users.username })
    .from(adminNotes)
    .innerJoin(users, eq(users.id, adminNotes.authorId))
    .where(eq(adminNotes.userId, userId))
    .orderBy(desc(adminNotes.id))
    .limit(PLAYER_PAGE_ROWS);
  return rows.map(({ note, authorName }) => ({
    id: note.id,
    body: note.body,
    author: { id: note.authorId, username: authorName },
    createdAt: note.createdAt.toISOString(),
  }));
}

/**
 * One player whole for an admin (docs/operator-tools.md): the profile and standing, the licence
 * review, the limits and breaks, the record, and the newest `PLAYER_PAGE_ROWS` of each list.
 * Challenges are shown as a participant sees them: the admin's page holds no other player's contact
 * details.
 */
export async function loadPlayerPage(ctx: AppContext, userId: number): Promise<PlayerPage> {
  const db = ctx.db;
  const user = await findUserById(db, userId);
  if (!user) throw new AppError('NOT_FOUND', INSIGHTS_MESSAGES.playerNotFound);
  const now = ctx.clock();
  const asPlayer = { ...user, isAdmin: false };
  const [
    profile,
    verification,
    responsibleGaming,
    records,
    challengeRows,
    movements,
    paymentRows,
    payoutRows,
    sessionViews,
    links,
    notes,
  ] = [
    await loadPublicUser(db, user, now),
    await findLatestVerification(db, userId),
    await responsibleGamingOf(db, userId, now),
    await findPlayerRecords(db, [userId]),
    await listChallengeRows(db, {
      viewerId: userId,
      role: 'mine',
      limit: PLAYER_PAGE_ROWS,
      withBalances: false,
    }),
    await listWalletMovements(db, userId, { limit: PLAYER_PAGE_ROWS }),
    await db
      .select()
      .from(payments)
      .where(eq(payments.userId, userId))
      .orderBy(desc(payments.id))
      .limit(PLAYER_PAGE_ROWS),
    await listOwnPayouts(db, userId, { limit: PLAYER_PAGE_ROWS }),
    await listSessions(db, userId, null, ctx.sessionPolicy, now),
    await deviceLinksOf(db, userId, ctx.env.RISK_WINDOW_DAYS, now),
    await listNotes(db, userId),
  ];
  return {
    profile,
    deleted: user.deletedAt !== null,
    verification: verification
      ? {
          status: verification.status,
          note: verification.note,
          submittedAt: verification.createdAt.toISOString(),
          reviewedAt: verification.reviewedAt?.toISOString() ?? null,
        }
      : { status: 'none', note: null, submittedAt: null, reviewedAt: null },
    responsibleGaming,
    record: records.get(userId) ?? EMPTY_RECORD,
    challenges: challengeRows.map((row) => toChallengeView(row, asPlayer)),
    transactions: movements.map(toTransactionView),
    payments: paymentRows.map(toPaymentRecord),
    payouts: payoutRows.map(toPayoutViewForAdmin),
    sessions: sessionViews,
    deviceLinks: links.map((link) => ({
      player: link.player,
      lastSharedAt: link.lastSharedAt.toISOString(),
      cleared: link.cleared && {
        note: link.cleared.note,
        clearedAt: link.cleared.clearedAt.toISOString(),
      },
    })),
    notes,
  };
}

/** An admin's note on a player, kept with its entry in the audit log in one transaction. */
export async function addAdminNote(
  ctx: AppContext,
  adminId: number,
  userId: number,
  body: string,
): Promise<AdminNoteView> {
  return inTransaction(ctx.db, async ({ tx }) => {
    const [player] = await tx.select({ id: users.id }).from(users).where(eq(users.id, userId));
    if (!player) throw new AppError('NOT_FOUND', INSIGHTS_MESSAGES.playerNotFound);
    const [note] = await tx
      .insert(adminNotes)
      .values({ userId, authorId: adminId, body, createdAt: ctx.clock() })
      .returning();
    const [author] = await tx
      .select({ username: users.username })
      .from(users)
      .where(eq(users.id, adminId));
    if (!note || !author) throw new Error('the note or its author vanished in its transaction');
    await recordAudit(tx, {
      actorUserId: adminId,
      action: 'player.note',
      target: { type: 'user', id: userId },
      details: { noteId: note.id },
      reason: body,
    });
    return {
      id: note.id,
      body: note.body,
      author: { id: adminId, username: author.username },
      createdAt: note.createdAt.toISOString(),
    };
  });
}
