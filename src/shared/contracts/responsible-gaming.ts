import { formatCents, parseAmount, type Cents } from '../money.ts';
import {
  SELF_EXCLUSION_MONTHS,
  TIME_OUT_DAYS,
  type SelfExclusionMonths,
  type TimeOutDays,
} from '../play-breaks.ts';
import { z } from '../validation.ts';
import { playBreakSchema } from './user.ts';

/**
 * The player's own limits and breaks (docs/responsible-play.md): deposit limits per day, week and
 * month, a time-out, a self-exclusion. Amounts travel as dollars, like every amount of the API.
 */

/** The periods as the API names them, and the rolling window each one means. */
export const LIMIT_KEYS = ['daily', 'weekly', 'monthly'] as const;
export type LimitKey = (typeof LIMIT_KEYS)[number];

const DAY_MS = 24 * 60 * 60 * 1000;
export const LIMIT_WINDOW_MS: Record<LimitKey, number> = {
  daily: DAY_MS,
  weekly: 7 * DAY_MS,
  monthly: 30 * DAY_MS,
};
/** A raise or a removal of a limit takes effect this long after it is asked for. */
export const LIMIT_RAISE_DELAY_MS = DAY_MS;
/** The largest limit accepted: far above any deposit, small enough to stay exact everywhere. */
export const LIMIT_MAX_CENTS = 100_000_000n;

export const LIMIT_NAMES: Record<LimitKey, string> = {
  daily: 'Daily',
  weekly: 'Weekly',
  monthly: 'Monthly',
};

/** How "what is left" reads for each window: "$50.00 left today". */
const LEFT_IN: Record<LimitKey, string> = {
  daily: 'today',
  weekly: 'this week',
  monthly: 'this month',
};

export const RESPONSIBLE_GAMING_MESSAGES = {
  limitInvalid: 'Please enter a valid amount',
  limitPositive: 'A limit must be greater than $0',
  limitMax: `A limit can be at most ${formatCents(LIMIT_MAX_CENTS)}`,
  nothingToChange: 'Please change at least one limit',
  timeOutDaysInvalid: 'Please choose 24 hours, 7 days or 30 days',
  selfExclusionMonthsInvalid: 'Please choose 6 months, 1 year or 5 years',
  /** A new break must end after the one in force: a break can be made longer, never shorter. */
  breakWouldShorten: (end: string) =>
    `You already have a break until ${end}: a new one must end later than that.`,
  depositOverLimit: (key: LimitKey, left: Cents) =>
    `This deposit is over your ${LIMIT_NAMES[key].toLowerCase()} deposit limit: ${formatCents(left)} left ${LEFT_IN[key]}.`,
  limitsSaved: 'LIMITS SAVED',
  timeOutStarted: 'TIME-OUT STARTED',
  selfExclusionStarted: 'SELF-EXCLUSION STARTED',
} as const;

/** A limit in dollars; null removes it. Parsed exactly into cents. */
export const limitAmountSchema = z
  .union([z.number(), z.string()], { error: RESPONSIBLE_GAMING_MESSAGES.limitInvalid })
  .transform((value, ctx): Cents => {
    const parsed = parseAmount(value);
    if (!parsed.ok) {
      ctx.addIssue({ code: 'custom', message: RESPONSIBLE_GAMING_MESSAGES.limitInvalid });
      return z.NEVER;
    }
    if (parsed.cents <= 0n) {
      ctx.addIssue({ code: 'custom', message: RESPONSIBLE_GAMING_MESSAGES.limitPositive });
      return z.NEVER;
    }
    if (parsed.cents > LIMIT_MAX_CENTS) {
      ctx.addIssue({ code: 'custom', message: RESPONSIBLE_GAMING_MESSAGES.limitMax });
      return z.NEVER;
    }
    return parsed.cents;
  })
  .nullable();

/** PUT /api/responsible-gaming/limits: a key left out keeps its limit; null removes one. */
export const setLimitsBodySchema = z
  .strictObject({
    daily: limitAmountSchema.optional(),
    weekly: limitAmountSchema.optional(),
    monthly: limitAmountSchema.optional(),
  })
  .refine((body) => LIMIT_KEYS.some((key) => body[key] !== undefined), {
    message: RESPONSIBLE_GAMING_MESSAGES.nothingToChange,
  });
export type SetLimitsBody = z.output<typeof setLimitsBodySchema>;

/** POST /api/responsible-gaming/time-out. */
export const timeOutBodySchema = z.strictObject({
  days: z
    .number({ error: RESPONSIBLE_GAMING_MESSAGES.timeOutDaysInvalid })
    .refine((days): days is TimeOutDays => (TIME_OUT_DAYS as readonly number[]).includes(days), {
      message: RESPONSIBLE_GAMING_MESSAGES.timeOutDaysInvalid,
    }),
});

/** POST /api/responsible-gaming/self-exclusion. */
export const selfExclusionBodySchema = z.strictObject({
  months: z
    .number({ error: RESPONSIBLE_GAMING_MESSAGES.selfExclusionMonthsInvalid })
    .refine(
      (months): months is SelfExclusionMonths =>
        (SELF_EXCLUSION_MONTHS as readonly number[]).includes(months),
      { message: RESPONSIBLE_GAMING_MESSAGES.selfExclusionMonthsInvalid },
    ),
});

const limitViewSchema = z.object({
  /** The limit in force, in dollars; null: none. */
  amount: z.number().nullable(),
  /** Deposits counted in the window now (docs/responsible-play.md: requested and not failed). */
  used: z.number(),
  /** What may still be deposited in the window; null without a limit. */
  left: z.number().nullable(),
  /** A raise or removal waiting for its 24 hours: the new limit (null: none) and when. */
  pending: z.object({ amount: z.number().nullable(), at: z.string() }).nullable(),
});
export type LimitView = z.infer<typeof limitViewSchema>;

export const RESPONSIBLE_GAMING_CHANGE_KINDS = [
  'limit_set',
  'limit_raise_requested',
  'time_out',
  'self_exclusion',
] as const;

const changeViewSchema = z.object({
  id: z.number().int(),
  kind: z.enum(RESPONSIBLE_GAMING_CHANGE_KINDS),
  /** For a limit: which one. */
  limit: z.enum(LIMIT_KEYS).nullable(),
  /** For a limit: the new amount in dollars; null: no limit. */
  amount: z.number().nullable(),
  /** When the change took or takes effect. */
  effectiveAt: z.string(),
  /** For a break: its end. */
  endsAt: z.string().nullable(),
  createdAt: z.string(),
});
export type ResponsibleGamingChangeView = z.infer<typeof changeViewSchema>;

/** GET /api/responsible-gaming, and the answer of every change to it. */
export const responsibleGamingSchema = z.object({
  limits: z.object({ daily: limitViewSchema, weekly: limitViewSchema, monthly: limitViewSchema }),
  playBreak: playBreakSchema.nullable(),
  /** Newest first. */
  history: z.array(changeViewSchema),
});
export type ResponsibleGaming = z.infer<typeof responsibleGamingSchema>;
