import { dollarNumberToCents, formatCents } from '#shared/money.ts';

/**
 * A dollar amount as the API sends it (a JSON number with at most two decimals) shown as "$12.50".
 * It goes through cents so that display never depends on float formatting.
 */
export function formatDollars(amount: number): string {
  return formatCents(dollarNumberToCents(amount));
}

/** "March 2025" for a date the API sent as text, or null when the text is not a date. */
export function formatMonthYear(isoDate: string): string | null {
  const date = new Date(isoDate);
  if (Number.isNaN(date.getTime())) return null;
  return date.toLocaleDateString('en-US', { month: 'long', year: 'numeric' });
}

/** "Mar 14, 2025, 12:00 PM" in the reader's time zone, or the text itself when it is not a date. */
export function formatDateTime(isoDate: string): string {
  const date = new Date(isoDate);
  if (Number.isNaN(date.getTime())) return isoDate;
  return date.toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });
}

/** A signed movement: "+$25.00" in, "-$25.00" out. */
export function formatSignedDollars(amount: number): string {
  return amount > 0 ? `+${formatDollars(amount)}` : formatDollars(amount);
}
