export { servePages } from './serve-pages.ts';
