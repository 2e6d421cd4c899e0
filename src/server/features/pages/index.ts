/**
 * The client's pages, served with their signed-in user and the data their screen asks first
 * (decision 8).
 */
export { servePages } from './serve-pages.ts';
