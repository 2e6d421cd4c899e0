/**
 * The admin dashboard's routes and its screens' queries (docs/operator-tools.md); what they do
 * belongs to the features that own it.
 */
export { adminRoutes } from './routes.ts';
