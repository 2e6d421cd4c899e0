/**
 * The audit log: every admin action and every change a player makes to their standing, with who
 * and why (docs/operator-tools.md).
 */
export { listAuditEntries, recordAudit } from './audit-log.ts';
export { auditRoutes } from './routes.ts';
