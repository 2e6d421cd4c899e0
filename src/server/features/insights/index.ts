export { insightsRoutes } from './routes.ts';
export {
  listTaxReport,
  streamTaxReport,
  taxYear,
  type TaxReportEntry,
  type TaxYear,
} from './tax-report.ts';
