/**
 * A player's suspension as the API shows it (docs/fair-play.md): why, and until when (null: until
 * an admin lifts it). A module without zod, like `error-codes.ts`, so that the banner the top bar
 * shows can word it without bringing zod into the first page.
 */
export interface Suspension {
  reason: string;
  /** ISO 8601; null when the suspension lasts until an admin lifts it. */
  until: string | null;
}

/** "2031-03-02 12:00 UTC": one wording on every screen and in every refusal, whatever the zone. */
export function formatSuspensionEnd(until: string): string {
  const iso = new Date(until).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

/** What a suspended player is told, by the server's refusals and by the app's banner. */
export function suspensionMessage(suspension: Suspension): string {
  return suspension.until === null
    ? `Your account is suspended: ${suspension.reason}`
    : `Your account is suspended until ${formatSuspensionEnd(suspension.until)}: ${suspension.reason}`;
}
