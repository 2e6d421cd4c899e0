import { z } from '../validation.ts';
import { paymentRecordSchema } from './account-data.ts';
import { DEVICE_LINK_MESSAGES, sessionViewSchema } from './account-security.ts';
import { idFromJson, idParamsSchema } from './ids.ts';
import { challengeSchema, playerRecordSchema } from './challenge-view.ts';
import { payoutSchema } from './payouts.ts';
import { verificationStatusSchema } from './profile.ts';
import { responsibleGamingSchema } from './responsible-gaming.ts';
import { publicUserSchema } from './user.ts';
import { transactionSchema } from './wallet.ts';

/**
 * Operator insights (docs/operator-tools.md): the admin's overview of a date range, the CSV
 * exports, the risk signals and the page per player. Days are UTC calendar days; a range names its
 * first and last day, both included.
 */
export const INSIGHTS_MESSAGES = {
  dateInvalid: 'Please give a date as YYYY-MM-DD',
  rangeInvalid: 'The range must start on or before its last day, and span at most 366 days',
  noteRequired: 'Please write a note',
  noteMax: 'A note is at most 2,000 characters',
  clearNoteMax: 'A note is at most 500 characters',
  playerNotFound: 'Player not found',
} as const;

/** The longest range one overview or export covers. */
export const INSIGHTS_RANGE_DAYS_MAX = 366;
/** The range the overview shows when none is asked for. */
export const INSIGHTS_DEFAULT_RANGE_DAYS = 30;

const DAY_MS = 86_400_000;

const isoDay = z
  .string({ error: INSIGHTS_MESSAGES.dateInvalid })
  .regex(/^\d{4}-\d{2}-\d{2}$/, INSIGHTS_MESSAGES.dateInvalid)
  .refine((text) => {
    // A day that does not exist (2026-02-30) either fails to parse or rolls into the next month.
    const at = Date.parse(`${text}T00:00:00Z`);
    return !Number.isNaN(at) && new Date(at).toISOString().slice(0, 10) === text;
  }, INSIGHTS_MESSAGES.dateInvalid);

/** The UTC day of an instant, as `YYYY-MM-DD`. */
export function dayOf(instant: Date): string {
  return instant.toISOString().slice(0, 10);
}

/** `day` moved by a whole number of days. */
export function addDays(day: string, days: number): string {
  return dayOf(new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS));
}

/** How many days from `from` to `to`, both included. */
export function daysInRange(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;
}

/** `?from=2026-11-01&to=2026-11-30`; either may be left out (the last 30 days up to today). */
export const insightsRangeQuerySchema = z
  .object({ from: isoDay.optional(), to: isoDay.optional() })
  .refine(
    ({ from, to }) =>
      from === undefined ||
      to === undefined ||
      (from <= to && daysInRange(from, to) <= INSIGHTS_RANGE_DAYS_MAX),
    { message: INSIGHTS_MESSAGES.rangeInvalid, path: ['to'] },
  );
export type InsightsRangeQuery = z.input<typeof insightsRangeQuerySchema>;

/** The figures of one day, or of the whole range. Money is dollars. */
const figuresShape = {
  /** Both stakes of every challenge accepted. */
  stakesVolume: z.number(),
  /** What the house's fee account took in, less fees handed back. */
  feesEarned: z.number(),
  /** What card and crypto payments credited to wallets. */
  deposits: z.number(),
  /** What completed payouts sent out. */
  payouts: z.number(),
  /** The change in the house's own accounts: fees, adjustments paid or taken, unclaimed money. */
  netHousePosition: z.number(),
  /** Players who created or accepted a challenge. */
  activePlayers: z.number().int(),
  registrations: z.number().int(),
  /** Challenges whose result was reported and stands (status completed). */
  completedChallenges: z.number().int(),
  /** Of the challenges whose result was reported, the fraction disputed (0 when none was). */
  disputeRate: z.number(),
};

export const overviewDaySchema = z.object({ date: z.string(), ...figuresShape });
export type OverviewDay = z.infer<typeof overviewDaySchema>;

export const overviewSchema = z.object({
  from: z.string(),
  to: z.string(),
  ...figuresShape,
  /**
   * What players owe after chargebacks now, whatever the range (docs/chargebacks.md): dollars, and
   * how many players owe.
   */
  debts: z.object({ total: z.number(), players: z.number().int() }),
  /** One row per day of the range, oldest first, days without activity included. */
  daily: z.array(overviewDaySchema),
});
export type Overview = z.infer<typeof overviewSchema>;

/** The CSV files an admin can download: `GET /api/admin/exports/{name}.csv?from=&to=`. */
export const EXPORT_NAMES = ['transfers', 'payments', 'payouts', 'chargebacks', 'tax'] as const;
export type ExportName = (typeof EXPORT_NAMES)[number];

export const EXPORT_CSV_COLUMNS = {
  transfers: [
    'transfer_id',
    'created_at',
    'kind',
    'idempotency_key',
    'reference_type',
    'reference_id',
    'reverses_transfer_id',
    'memo',
    'posting_id',
    'account',
    'amount',
    'balance_after',
  ],
  payments: [
    'payment_id',
    'created_at',
    'user_id',
    'username',
    'provider',
    'method',
    'provider_payment_id',
    'status',
    'requested',
    'credited',
    'credited_at',
  ],
  payouts: [
    'payout_id',
    'created_at',
    'user_id',
    'username',
    'method',
    'status',
    'amount',
    'decided_at',
    'completed_at',
    'failure_reason',
  ],
  chargebacks: [
    'dispute_id',
    'created_at',
    'user_id',
    'username',
    'payment_id',
    'amount',
    'reason',
    'status',
    'outcome',
    'evidence_submitted_at',
    'closed_at',
    'debt_now',
  ],
  tax: [
    'user_id',
    'username',
    'email',
    'account_closed',
    'prizes',
    'prizes_credited',
    'stakes',
    'net_winnings',
  ],
} as const satisfies Record<ExportName, readonly string[]>;

export function exportFileName(name: ExportName, from: string, to: string): string {
  return `skillstake-${name}-${from}-to-${to}.csv`;
}

/** One player seen with others on one address or one browser. */
const riskPlayerSchema = z.object({ id: z.number().int(), username: z.string() });
export type RiskPlayer = z.infer<typeof riskPlayerSchema>;

export const riskSchema = z.object({
  /** The window the signals look at, and the thresholds they used. */
  windowDays: z.number().int(),
  thresholds: z.object({
    sharedAccountsMin: z.number().int(),
    pairMatchesMin: z.number().int(),
    pairWinShareMin: z.number(),
    withdrawnShareMin: z.number(),
    playShareMax: z.number(),
  }),
  /**
   * Accounts signed in with one device id within the window (docs/accounts.md#devices): `device`
   * is the start of its hash, `browsers` what its sign-ins' User-Agents name (shown, never
   * compared).
   */
  sharedDevices: z.array(
    z.object({
      device: z.string(),
      browsers: z.array(z.string()),
      players: z.array(riskPlayerSchema),
    }),
  ),
  /** Accounts signed in from one address within the window: shown only, it holds nothing. */
  sharedNetworks: z.array(z.object({ address: z.string(), players: z.array(riskPlayerSchema) })),
  /** Two players who mostly play each other, one of them winning almost every time. */
  lopsidedPairs: z.array(
    z.object({
      winner: riskPlayerSchema,
      loser: riskPlayerSchema,
      matches: z.number().int(),
      winnerWins: z.number().int(),
      /** What the loser's stakes moved to the winner, net of the matches the loser won. */
      amountMoved: z.number(),
    }),
  ),
  /** Players who deposited and withdrew most of it having staked little. */
  unplayedWithdrawals: z.array(
    z.object({
      player: riskPlayerSchema,
      deposited: z.number(),
      withdrawn: z.number(),
      staked: z.number(),
    }),
  ),
});
export type Risk = z.infer<typeof riskSchema>;

/** A player's id: a positive 32-bit integer, as the users table holds it. */
export const playerIdParamsSchema = idParamsSchema(INSIGHTS_MESSAGES.playerNotFound);

export const adminNoteBodySchema = z.object({
  body: z
    .string({ error: INSIGHTS_MESSAGES.noteRequired })
    .trim()
    .min(1, INSIGHTS_MESSAGES.noteRequired)
    .max(2000, INSIGHTS_MESSAGES.noteMax),
});

export const adminNoteSchema = z.object({
  id: z.number().int(),
  body: z.string(),
  author: riskPlayerSchema,
  createdAt: z.string(),
});
export type AdminNoteView = z.infer<typeof adminNoteSchema>;

/** An account that shared a device with the player (docs/accounts.md#devices). */
export const deviceLinkSchema = z.object({
  player: riskPlayerSchema,
  lastSharedAt: z.string(),
  /** Set once an admin cleared the link: the pair may play each other. */
  cleared: z.object({ note: z.string(), clearedAt: z.string() }).nullable(),
});
export type DeviceLinkView = z.infer<typeof deviceLinkSchema>;

/** `POST /api/admin/players/{id}/links/clear`: the other account, and why the link is innocent. */
export const clearLinkBodySchema = z.strictObject({
  otherUserId: idFromJson(INSIGHTS_MESSAGES.playerNotFound),
  note: z
    .string({ error: DEVICE_LINK_MESSAGES.noteRequired })
    .trim()
    .min(1, DEVICE_LINK_MESSAGES.noteRequired)
    .max(500, INSIGHTS_MESSAGES.clearNoteMax),
});

/** How many of each list the player page shows, newest first. */
export const PLAYER_PAGE_ROWS = 50;

/** `GET /api/admin/players/{id}`: one player whole, as docs/operator-tools.md lists it. */
export const playerPageSchema = z.object({
  profile: publicUserSchema,
  deleted: z.boolean(),
  verification: verificationStatusSchema,
  responsibleGaming: responsibleGamingSchema,
  record: playerRecordSchema,
  challenges: z.array(challengeSchema),
  transactions: z.array(transactionSchema),
  payments: z.array(paymentRecordSchema),
  payouts: z.array(payoutSchema),
  sessions: z.array(sessionViewSchema),
  /** The accounts that shared a device with this one in the risk window, cleared ones too. */
  deviceLinks: z.array(deviceLinkSchema),
  notes: z.array(adminNoteSchema),
});
export type PlayerPage = z.infer<typeof playerPageSchema>;
