// Made once: `toLocaleString` with options builds a formatter on every call, which the profile of
// a settlement showed at half a millisecond a mail.
const UTC_FORMAT = new Intl.DateTimeFormat('en-US', {
  timeZone: 'UTC',
  dateStyle: 'medium',
  timeStyle: 'short',
});

/**
 * A moment as mails and notifications write it, for a reader anywhere: "Nov 26, 2026, 10:06 AM
 * UTC". The server does not know the player's time zone; the pages show times in the browser's.
 */
export function formatUtc(moment: Date): string {
  return `${UTC_FORMAT.format(moment)} UTC`;
}
