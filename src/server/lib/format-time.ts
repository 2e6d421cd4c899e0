/**
 * A moment as mails and notifications write it, for a reader anywhere: "Nov 26, 2026, 10:06 AM
 * UTC". The server does not know the player's time zone; the pages show times in the browser's.
 */
export function formatUtc(moment: Date): string {
  return `${moment.toLocaleString('en-US', { timeZone: 'UTC', dateStyle: 'medium', timeStyle: 'short' })} UTC`;
}
