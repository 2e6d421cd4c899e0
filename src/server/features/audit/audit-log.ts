import { and, desc, eq, lt, type SQL } from 'drizzle-orm';
import type { AuditAction } from '#shared/contracts/admin.ts';
import type { Executor } from '../../db/client.ts';
import { auditLog, type AuditDetails, type AuditEntry } from '../../db/schema/audit-log.ts';
import { users } from '../../db/schema/users.ts';

export interface AuditRecord {
  actorUserId: number;
  action: AuditAction;
  target: {
    type:
      | 'user'
      | 'payout'
      | 'challenge'
      | 'verification'
      | 'report'
      | 'tax_report'
      | 'export'
      | 'tournament';
    id: number | string;
  };
  details: AuditDetails;
  reason?: string | null | undefined;
}

/**
 * Records an admin action. Callers pass their transaction, so the entry commits exactly when the
 * action does: there is no action without its entry and no entry for an action rolled back.
 */
export async function recordAudit(tx: Executor, record: AuditRecord): Promise<void> {
  await tx.insert(auditLog).values({
    actorUserId: record.actorUserId,
    action: record.action,
    targetType: record.target.type,
    targetId: String(record.target.id),
    details: record.details,
    reason: record.reason ? record.reason : null,
  });
}

export interface AuditFilter {
  limit: number;
  before?: number | undefined;
  action?: AuditAction | undefined;
  targetType?: string | undefined;
  targetId?: string | undefined;
}

/** Entries newest first, each with its actor's current username. */
export async function listAuditEntries(
  db: Executor,
  filter: AuditFilter,
): Promise<Array<{ entry: AuditEntry; actorUsername: string }>> {
  const conditions: SQL[] = [];
  if (filter.before !== undefined) conditions.push(lt(auditLog.id, BigInt(filter.before)));
  if (filter.action) conditions.push(eq(auditLog.action, filter.action));
  if (filter.targetType) conditions.push(eq(auditLog.targetType, filter.targetType));
  if (filter.targetId) conditions.push(eq(auditLog.targetId, filter.targetId));
  const rows = await db
    .select({ entry: auditLog, actorUsername: users.username })
    .from(auditLog)
    .innerJoin(users, eq(users.id, auditLog.actorUserId))
    .where(conditions.length > 0 ? and(...conditions) : undefined)
    .orderBy(desc(auditLog.id))
    .limit(filter.limit);
  return rows;
}
