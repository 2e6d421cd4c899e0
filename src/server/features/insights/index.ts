/**
 * The operator's insights: the overview, the CSV exports, the tax report and the player page
 * (docs/operator-tools.md).
 */
export { insightsRoutes } from './routes.ts';
export {
  listTaxReport,
  streamTaxReport,
  taxYear,
  type TaxReportEntry,
  type TaxYear,
} from './tax-report.ts';
