export { listAuditEntries, recordAudit } from './audit-log.ts';
export { auditRoutes } from './routes.ts';
