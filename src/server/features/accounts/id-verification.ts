import { and, desc, eq, lt, type SQL } from 'drizzle-orm';
import { ADMIN_MESSAGES } from '#shared/contracts/admin.ts';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import {
  licenseVerifications,
  type LicenseVerification,
  type LicenseVerificationStatus,
} from '../../db/schema/license-verifications.ts';
import { uploads, type Upload } from '../../db/schema/uploads.ts';
import { users } from '../../db/schema/users.ts';
import { inTransaction, type UnitOfWork } from '../../db/transaction.ts';
import { AppError } from '../../errors.ts';
import { recordAudit } from '../audit/index.ts';

/**
 * Queues an uploaded licence for review. A player has at most one pending review: a new upload
 * while one waits replaces its file (the partial unique index decides, even under concurrency).
 */
export async function submitLicense(
  db: Executor,
  userId: number,
  uploadId: string,
  now: Date,
): Promise<LicenseVerification> {
  const [row] = await db
    .insert(licenseVerifications)
    .values({ userId, uploadId, status: 'pending', createdAt: now })
    .onConflictDoUpdate({
      target: licenseVerifications.userId,
      targetWhere: eq(licenseVerifications.status, 'pending'),
      set: { uploadId, createdAt: now },
    })
    .returning();
  if (!row) throw new Error('upsert returned no verification');
  return row;
}

/** The player's newest review: their verification status. */
export async function findLatestVerification(
  db: Executor,
  userId: number,
): Promise<LicenseVerification | undefined> {
  const [row] = await db
    .select()
    .from(licenseVerifications)
    .where(eq(licenseVerifications.userId, userId))
    .orderBy(desc(licenseVerifications.id))
    .limit(1);
  return row;
}

export interface VerificationWithContext {
  verification: LicenseVerification;
  username: string;
  upload: Upload;
}

export async function listVerifications(
  db: Executor,
  filter: { limit: number; before?: number | undefined; status?: LicenseVerificationStatus },
): Promise<VerificationWithContext[]> {
  const conditions: SQL[] = [];
  if (filter.status) conditions.push(eq(licenseVerifications.status, filter.status));
  if (filter.before !== undefined) conditions.push(lt(licenseVerifications.id, filter.before));
  return db
    .select({ verification: licenseVerifications, username: users.username, upload: uploads })
    .from(licenseVerifications)
    .innerJoin(users, eq(users.id, licenseVerifications.userId))
    .innerJoin(uploads, eq(uploads.id, licenseVerifications.uploadId))
    .where(conditions.length > 0 ? and(...conditions) : undefined)
    .orderBy(desc(licenseVerifications.id))
    .limit(filter.limit);
}

export async function findVerification(
  db: Executor,
  id: number,
): Promise<VerificationWithContext | undefined> {
  const [row] = await db
    .select({ verification: licenseVerifications, username: users.username, upload: uploads })
    .from(licenseVerifications)
    .innerJoin(users, eq(users.id, licenseVerifications.userId))
    .innerJoin(uploads, eq(uploads.id, licenseVerifications.uploadId))
    .where(eq(licenseVerifications.id, id))
    .limit(1);
  return row;
}

export interface VerificationDecision {
  adminId: number;
  outcome: 'approved' | 'rejected';
  note: string | undefined;
}

/** An admin approves or rejects a pending licence, once; the audit entry commits with it. */
export async function decideVerification(
  ctx: AppContext,
  id: number,
  decision: VerificationDecision,
): Promise<void> {
  await inTransaction(ctx.db, async (uow) => {
    const [verification] = await uow.tx
      .select()
      .from(licenseVerifications)
      .where(eq(licenseVerifications.id, id))
      .limit(1)
      .for('update');
    if (!verification) throw new AppError('NOT_FOUND', ADMIN_MESSAGES.verificationNotFound);
    if (verification.status !== 'pending') {
      throw new AppError(
        'VERIFICATION_NOT_PENDING',
        verification.status === 'approved'
          ? ADMIN_MESSAGES.verificationApproved
          : ADMIN_MESSAGES.verificationRejected,
      );
    }
    await uow.tx
      .update(licenseVerifications)
      .set({
        status: decision.outcome,
        reviewedBy: decision.adminId,
        reviewedAt: ctx.clock(),
        note: decision.note ?? null,
      })
      .where(eq(licenseVerifications.id, verification.id));
    await recordAudit(uow.tx, {
      actorUserId: decision.adminId,
      action: decision.outcome === 'approved' ? 'verification.approve' : 'verification.reject',
      target: { type: 'verification', id: verification.id },
      details: { userId: verification.userId, uploadId: verification.uploadId },
      reason: decision.note,
    });
  });
}

/** Closes a deleted account's pending review inside the deletion's transaction. */
export async function rejectPendingVerificationsOf(
  uow: UnitOfWork,
  userId: number,
  adminId: number,
  note: string,
  now: Date,
): Promise<number[]> {
  const rows = await uow.tx
    .update(licenseVerifications)
    .set({ status: 'rejected', reviewedBy: adminId, reviewedAt: now, note })
    .where(and(eq(licenseVerifications.userId, userId), eq(licenseVerifications.status, 'pending')))
    .returning({ id: licenseVerifications.id });
  return rows.map((row) => row.id);
}
