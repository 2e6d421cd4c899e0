import { and, desc, eq } from 'drizzle-orm';
import type { AuditAction } from '#shared/contracts/admin.ts';
import { Agent, uniqueUsername, type TestApp } from '#tests/helpers/test-app.ts';
import type { DatabaseHandle } from '../../../db/client.ts';
import { auditLog, type AuditEntry } from '../../../db/schema/audit-log.ts';
import { ensureAdmin } from '../../accounts/admin-bootstrap.ts';

/** A fresh admin account and a signed-in agent for it. */
export async function signInAdmin(t: TestApp): Promise<{ agent: Agent; id: number }> {
  const username = uniqueUsername('admin');
  await ensureAdmin(t.database.db, t.bus, username, 'admin-password');
  const agent = new Agent(t.app);
  const login = await agent.post('/api/login', { username, password: 'admin-password' });
  if (login.statusCode !== 200) throw new Error(`admin login failed: ${login.body}`);
  return { agent, id: login.json<{ id: number }>().id };
}

/** The audit entries about one target, newest first. */
export async function auditEntriesFor(
  database: DatabaseHandle,
  target: { type: string; id: number | string },
  action?: AuditAction,
): Promise<AuditEntry[]> {
  return database.db
    .select()
    .from(auditLog)
    .where(
      and(
        eq(auditLog.targetType, target.type),
        eq(auditLog.targetId, String(target.id)),
        ...(action ? [eq(auditLog.action, action)] : []),
      ),
    )
    .orderBy(desc(auditLog.id));
}
