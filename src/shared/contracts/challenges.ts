import { groupThousands, parseAmount } from '../money.ts';
import { phoneNumberSchema, USERNAME_MAX } from './auth.ts';
import { CHALLENGE_STATUS_VALUES, challengeSchema } from './challenge-view.ts';
import { beforeCursor, idParamsSchema } from './ids.ts';
import { isHttpsUrl, UPLOAD_PATH_PATTERN } from './uploads.ts';
import {
  CHALLENGE_SORTS,
  CONSOLES,
  FILTER_MESSAGES,
  GAME_MAX,
  type ChallengeSort,
} from '../lobby.ts';
import { z } from '../validation.ts';

export { CHALLENGE_SORTS, CONSOLES, FILTER_MESSAGES, GAME_MAX, type ChallengeSort };

export {
  CHALLENGE_STATUS_VALUES,
  challengeCountsSchema,
  challengeSchema,
  playerRecordSchema,
  type ChallengeCounts,
  type ChallengeStatusValue,
  type ChallengeView,
  type PlayerRecord,
} from './challenge-view.ts';

/** Bounds the SPEC leaves open, decided in issue 4. */
export const CHALLENGE_AMOUNT_MIN = 1;
export const CHALLENGE_AMOUNT_MAX = 10_000;
export const GAMER_TAG_MAX = 40;
export const MODE_MAX = 40;
export const SCORE_MAX = 1_000_000;
export const NOTES_MAX = 1000;
export const SCREENSHOT_URL_MAX = 2048;
export { WINNER_FEE_BASIS_POINTS } from '../stake-terms.ts';
export const DISPUTE_WINDOW_MS = 24 * 60 * 60 * 1000;

export const CHALLENGE_MESSAGES = {
  gameRequired: 'Game is required',
  gameMax: `Game must be at most ${GAME_MAX} characters`,
  gamerTagRequired: 'Gamer tag is required',
  gamerTagMax: `Gamer tag must be at most ${GAMER_TAG_MAX} characters`,
  amountWhole: 'Amount must be a whole number of dollars',
  amountMin: `Amount must be at least $${CHALLENGE_AMOUNT_MIN}`,
  amountMax: `Amount must be at most $${groupThousands(String(CHALLENGE_AMOUNT_MAX))}`,
  console: 'Please choose a console',
  modeMax: `Must be at most ${MODE_MAX} characters`,
  scoreWhole: 'Scores must be whole numbers',
  scoreMin: 'Scores cannot be negative',
  scoreMax: `Scores must be at most ${groupThousands(String(SCORE_MAX))}`,
  screenshotRequired: 'Screenshot URL is required',
  screenshotHttps: 'Screenshot URL must be an https:// link',
  notesMax: `Must be at most ${NOTES_MAX} characters`,
  notFound: 'Challenge not found',
  notOpen: 'This challenge is no longer available',
  ownChallenge: 'You cannot accept your own challenge',
  notParticipant: 'Only the two players of this challenge can do that',
  notAccepted: 'Results can only be submitted for an accepted challenge',
  alreadySubmitted: 'Results have already been submitted for this challenge',
  onlyCreatorCancels: 'Only the creator can cancel this challenge',
  cannotCancel: 'Only an open challenge can be cancelled',
  disputeNotAllowed: 'This result can no longer be disputed',
  disputeOwnSubmission: 'The other player must dispute a result',
  decidedByAdmin: 'An admin decided this result; it is final',
  disputeReasonRequired: 'Please describe the problem',
  confirmDisputed: 'This result is disputed: an admin will decide it',
  nothingToConfirm: 'There is no reported result to confirm',
  confirmOwnReport: 'Your opponent must confirm the result you reported',
  cancelRequested: 'You already asked to call this match off; waiting for your opponent',
  cannotCancelNow: 'Only an open or accepted challenge can be cancelled',
  noShowTooEarly: 'You can report a no-show once the waiting time after acceptance has passed',
  noShowNotAccepted: 'A no-show can only be reported on an accepted match',
  noShowReason: 'No-show',
  opponentUnknown: 'There is no player by that name who can take a challenge now',
  opponentSelf: 'You cannot challenge yourself',
  onlyOpponentDeclines: 'Only the challenged player can decline this challenge',
} as const;

const optionalText = (max: number, message: string) =>
  z
    .string()
    .trim()
    .max(max, message)
    .optional()
    .transform((value) => (value ? value : undefined));

export const createChallengeBodySchema = z.strictObject({
  game: z
    .string()
    .trim()
    .min(1, CHALLENGE_MESSAGES.gameRequired)
    .max(GAME_MAX, CHALLENGE_MESSAGES.gameMax),
  amount: z
    .number({ error: CHALLENGE_MESSAGES.amountWhole })
    .int(CHALLENGE_MESSAGES.amountWhole)
    .min(CHALLENGE_AMOUNT_MIN, CHALLENGE_MESSAGES.amountMin)
    .max(CHALLENGE_AMOUNT_MAX, CHALLENGE_MESSAGES.amountMax),
  gamerTag: z
    .string()
    .trim()
    .min(1, CHALLENGE_MESSAGES.gamerTagRequired)
    .max(GAMER_TAG_MAX, CHALLENGE_MESSAGES.gamerTagMax),
  phoneNumber: phoneNumberSchema,
  console: z.enum(CONSOLES, { error: CHALLENGE_MESSAGES.console }),
  mode: optionalText(MODE_MAX, CHALLENGE_MESSAGES.modeMax),
  platform: optionalText(MODE_MAX, CHALLENGE_MESSAGES.modeMax),
  /**
   * A direct challenge's opponent, by username (docs/challenges.md#finding-an-opponent); absent for
   * a public challenge.
   */
  opponent: z
    .string()
    .trim()
    .max(USERNAME_MAX, CHALLENGE_MESSAGES.opponentUnknown)
    .optional()
    .transform((value) => (value ? value : undefined)),
});
export type CreateChallengeBody = z.input<typeof createChallengeBodySchema>;

/**
 * Quick match's terms (docs/challenges.md#finding-an-opponent), with what a challenge it opens
 * needs, as a creation.
 */
export const quickMatchBodySchema = createChallengeBodySchema.pick({
  game: true,
  amount: true,
  console: true,
  gamerTag: true,
  phoneNumber: true,
});
export type QuickMatchBody = z.input<typeof quickMatchBodySchema>;

export const OPPONENT_SEARCH_MIN = 2;

/**
 * The opponent field's suggestions (docs/challenges.md#finding-an-opponent): players whose username
 * starts so.
 */
export const opponentSearchQuerySchema = z.object({
  search: z
    .string()
    .trim()
    .min(OPPONENT_SEARCH_MIN, `Type at least ${OPPONENT_SEARCH_MIN} letters of a username`)
    .max(USERNAME_MAX, CHALLENGE_MESSAGES.opponentUnknown),
});

export const opponentSuggestionsSchema = z.object({ usernames: z.array(z.string()) });
export type OpponentSuggestions = z.infer<typeof opponentSuggestionsSchema>;

export const quickMatchResponseSchema = z.object({
  challenge: challengeSchema,
  /** True when it accepted another player's challenge; false when it opened (or kept) one. */
  matched: z.boolean(),
});
export type QuickMatchResponse = z.infer<typeof quickMatchResponseSchema>;

const score = z
  .number({ error: CHALLENGE_MESSAGES.scoreWhole })
  .int(CHALLENGE_MESSAGES.scoreWhole)
  .min(0, CHALLENGE_MESSAGES.scoreMin)
  .max(SCORE_MAX, CHALLENGE_MESSAGES.scoreMax);

export const submitScoresBodySchema = z.strictObject({
  creatorScore: score,
  acceptorScore: score,
  screenshot: z
    .string({ error: CHALLENGE_MESSAGES.screenshotRequired })
    .trim()
    .min(1, CHALLENGE_MESSAGES.screenshotRequired)
    .max(SCREENSHOT_URL_MAX, CHALLENGE_MESSAGES.screenshotHttps)
    .refine(
      (value) => isHttpsUrl(value) || UPLOAD_PATH_PATTERN.test(value),
      CHALLENGE_MESSAGES.screenshotHttps,
    ),
  notes: optionalText(NOTES_MAX, CHALLENGE_MESSAGES.notesMax),
  disputeReason: optionalText(NOTES_MAX, CHALLENGE_MESSAGES.notesMax),
});
export type SubmitScoresBody = z.input<typeof submitScoresBodySchema>;

export const disputeBodySchema = z.strictObject({
  reason: z
    .string({ error: CHALLENGE_MESSAGES.disputeReasonRequired })
    .trim()
    .min(1, CHALLENGE_MESSAGES.disputeReasonRequired)
    .max(NOTES_MAX, CHALLENGE_MESSAGES.notesMax),
});

export const challengeIdParamsSchema = idParamsSchema(CHALLENGE_MESSAGES.notFound);

export const CHALLENGE_PAGE_MAX = 100;

/** A stake bound in dollars, as typed in a query string: at most two decimals, not negative. */
const amountBound = (message: string) =>
  z
    .string()
    .trim()
    .transform((value, context) => {
      if (value === '') return undefined;
      const parsed = parseAmount(value);
      if (!parsed.ok || parsed.cents < 0n) {
        context.addIssue({ code: 'custom', message });
        return z.NEVER;
      }
      return parsed.cents;
    })
    .optional();

/**
 * The lobby's filters (docs/challenges.md#finding-an-opponent), shared by the lists and their
 * counts. An empty value is no filter, so a form can send every field. Amounts come in dollars and
 * leave in cents.
 */
const challengeFilterFields = {
  /** Part of the game's name, whatever its case. */
  game: z
    .string()
    .trim()
    .max(GAME_MAX, FILTER_MESSAGES.gameMax)
    .transform((value) => value || undefined)
    .optional(),
  console: z
    .union([z.literal(''), z.enum(CONSOLES)], { error: FILTER_MESSAGES.console })
    .transform((value) => value || undefined)
    .optional(),
  minAmount: amountBound(FILTER_MESSAGES.minAmount),
  maxAmount: amountBound(FILTER_MESSAGES.maxAmount),
};

type Bounds = { minAmount?: bigint | undefined; maxAmount?: bigint | undefined };
const boundsInOrder: [(bounds: Bounds) => boolean, { message: string; path: string[] }] = [
  ({ minAmount, maxAmount }) =>
    minAmount === undefined || maxAmount === undefined || minAmount <= maxAmount,
  { message: FILTER_MESSAGES.range, path: ['maxAmount'] },
];

export const challengeFiltersSchema = z.object(challengeFilterFields).refine(...boundsInOrder);
export type ChallengeFilters = z.output<typeof challengeFiltersSchema>;

export const listChallengesQuerySchema = z
  .object({
    /** One status or several, comma-separated: `completed,disputed`. */
    status: z
      .string()
      .transform((value) => value.split(','))
      .pipe(z.array(z.enum(CHALLENGE_STATUS_VALUES)).min(1))
      .optional(),
    /**
     * Relative to the caller: challenges they created, accepted, either, or the direct ones
     * they sent or received (docs/challenges.md#finding-an-opponent).
     */
    role: z.enum(['created', 'accepted', 'mine', 'direct']).optional(),
    limit: z.coerce.number().int().min(1).max(CHALLENGE_PAGE_MAX).default(50),
    /**
     * Only challenges after this one in the list's order: pass the last id of a page to get the
     * next one (newest first, those with a smaller id).
     */
    before: beforeCursor(),
    sort: z.enum(CHALLENGE_SORTS, { error: FILTER_MESSAGES.sort }).default('newest'),
    ...challengeFilterFields,
  })
  .refine(...boundsInOrder);
export type ListChallengesQuery = z.input<typeof listChallengesQuerySchema>;

export const submitScoresResponseSchema = z.object({
  status: z.enum(['completed', 'disputed']),
  winner: z.object({ id: z.number().int(), prize: z.number(), deduction: z.number() }),
  updatedWinnerInfo: z.object({ id: z.number().int(), balance: z.number() }),
  /**
   * The winner's credit while it waits for the opponent (docs/fair-play.md); null once it is paid.
   */
  review: z.object({ held: z.number(), until: z.string() }).nullable().optional(),
});
export type SubmitScoresResponse = z.infer<typeof submitScoresResponseSchema>;

export const uploadResponseSchema = z.object({ id: z.string(), url: z.string() });

/** A dispute's evidence (docs/fair-play.md): a statement, a screenshot or a recording, or both. */
export const EVIDENCE_STATEMENT_MAX = 2000;
export const EVIDENCE_VIDEO_BYTES_MAX = 100 * 1024 * 1024;

export const EVIDENCE_MESSAGES = {
  statementMax: `Must be at most ${groupThousands(String(EVIDENCE_STATEMENT_MAX))} characters`,
  empty: 'Add a statement or a file',
  notDisputed: 'Evidence can only be added while the result is disputed',
  invalidType: 'Invalid file type: add an image, or an MP4 or WebM video',
  videoTooLarge: 'File too large. Please upload a video smaller than 100MB.',
} as const;

export const evidenceSchema = z.object({
  id: z.number().int(),
  userId: z.number().int(),
  username: z.string(),
  statement: z.string().nullable(),
  file: z
    .object({ url: z.string(), contentType: z.string(), name: z.string().nullable() })
    .nullable(),
  createdAt: z.string(),
});
export type Evidence = z.infer<typeof evidenceSchema>;

/** The operator's fair-play settings (docs/fair-play.md), for the pages that count down to them. */
export const fairPlayRulesSchema = z.object({
  resultReviewHours: z.number().int(),
  noShowMinutes: z.number().int(),
  matchTimeLimitHours: z.number().int(),
});
export type FairPlayRules = z.infer<typeof fairPlayRulesSchema>;
