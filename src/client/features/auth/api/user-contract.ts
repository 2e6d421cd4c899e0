/**
 * The contract of the signed-in user, in a chunk of its own that the client loads before its first
 * render when the page names a user. The server names this module's chunks in such a page
 * (`lib/client-pages.ts`), so that they download beside the entry instead of after it has run.
 */
export { publicUserSchema } from '#shared/contracts/user.ts';
