import { z } from '../validation.ts';

/**
 * The admin's tax report (docs/responsible-play.md): each player's net winnings in one calendar
 * year (UTC), that is the prizes credited to their wallet minus the stakes of those same
 * challenges, listed for players at or above `TAX_REPORT_THRESHOLD`. `GET
 * /api/admin/tax-report?year=` answers JSON; `GET /api/admin/tax-report.csv?year=` the same rows as
 * a CSV file.
 */
export const TAX_REPORT_MESSAGES = {
  yearInvalid: 'Please choose a year between 2000 and 2100',
} as const;

export const TAX_YEAR_MIN = 2000;
export const TAX_YEAR_MAX = 2100;

/** `?year=2026`; without it, the current year (UTC). */
export const taxReportQuerySchema = z.object({
  year: z.coerce
    .number({ error: TAX_REPORT_MESSAGES.yearInvalid })
    .int(TAX_REPORT_MESSAGES.yearInvalid)
    .min(TAX_YEAR_MIN, TAX_REPORT_MESSAGES.yearInvalid)
    .max(TAX_YEAR_MAX, TAX_REPORT_MESSAGES.yearInvalid)
    .optional(),
});
export type TaxReportQuery = z.input<typeof taxReportQuerySchema>;

/** One player's year. Money is dollars, as every admin answer shows it. */
export const taxReportRowSchema = z.object({
  userId: z.number().int(),
  /** `deleted_user_<id>` once the account is closed: its personal data is erased. */
  username: z.string(),
  email: z.string().nullable(),
  accountClosed: z.boolean(),
  /** How many prizes were credited in the year. */
  prizes: z.number().int(),
  /** What reached the wallet: each prize after the fee. */
  prizesCredited: z.number(),
  /** The player's own stakes in those challenges. */
  stakes: z.number(),
  /** `prizesCredited − stakes`. */
  netWinnings: z.number(),
});
export type TaxReportRow = z.infer<typeof taxReportRowSchema>;

export const taxReportSchema = z.object({
  year: z.number().int(),
  /** `TAX_REPORT_THRESHOLD`, in dollars. */
  threshold: z.number(),
  /** The year's bounds: from its first instant (inclusive) to the next year's (exclusive). */
  from: z.string(),
  to: z.string(),
  /** Highest net winnings first. */
  players: z.array(taxReportRowSchema),
});
export type TaxReport = z.infer<typeof taxReportSchema>;

/** The CSV's header line, in column order. Money is decimal dollars ("2000.00"), exact. */
export const TAX_REPORT_CSV_COLUMNS = [
  'year',
  'user_id',
  'username',
  'email',
  'account_closed',
  'prizes',
  'prizes_credited',
  'stakes',
  'net_winnings',
] as const;

/** The file the CSV downloads as. */
export const taxReportFileName = (year: number): string => `skillstake-tax-report-${year}.csv`;
