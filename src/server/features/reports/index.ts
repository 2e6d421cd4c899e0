/**
 * Players' reports about each other, for the admins' queue (docs/fair-play.md).
 */
export { findReport, listReports, resolveReport, type ReportWithPeople } from './reports.ts';
export { reportRoutes } from './routes.ts';
