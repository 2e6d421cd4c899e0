export { findReport, listReports, resolveReport, type ReportWithPeople } from './reports.ts';
export { reportRoutes } from './routes.ts';
