import { z } from '../validation.ts';
import { beforeCursor, BIGINT_ID_MAX } from './ids.ts';

/** What a notification is about (docs/fair-play.md); the client picks an icon and a link by it. */
export const NOTIFICATION_KINDS = [
  'challenge_accepted',
  'result_reported',
  'review_ending',
  'result_released',
  'result_disputed',
  'cancel_requested',
  'match_cancelled',
  'match_expired',
  'no_show_claimed',
  'dispute_decided',
  'payout_completed',
  'payout_failed',
  'account_suspended',
  'suspension_lifted',
  /** The player took a time-out or excluded themselves (docs/responsible-play.md). */
  'play_break_started',
  'direct_challenge',
  'challenge_declined',
  /** A payout moved on its way out: approved, sending, sent (docs/payouts.md). */
  'payout_update',
  /** Tournaments (docs/tournaments.md): a match to play, a result to answer, a refund, a prize. */
  'tournament_match',
  'tournament_result',
  'tournament_cancelled',
  'tournament_finished',
  /** A disputed card payment locked the player's money, or an admin lifted it (docs/chargebacks.md). */
  'money_locked',
  'money_lock_lifted',
  'card_dispute_won',
  /** A refund to a card was made, or refused and returned to the balance. */
  'card_refund_completed',
  'card_refund_failed',
  /** To admins: a card network warned of fraud on a payment (docs/chargebacks.md). */
  'card_fraud_warning',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

export const notificationSchema = z.object({
  id: z.number().int(),
  kind: z.enum(NOTIFICATION_KINDS),
  challengeId: z.number().int().nullable(),
  title: z.string(),
  body: z.string(),
  createdAt: z.string(),
  read: z.boolean(),
});
export type NotificationView = z.infer<typeof notificationSchema>;

export const NOTIFICATION_PAGE_MAX = 50;

export const listNotificationsQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(NOTIFICATION_PAGE_MAX).default(20),
  /** Only notifications with a smaller id: the last id of a page gives the next one. */
  before: beforeCursor(BIGINT_ID_MAX),
});

export const notificationListSchema = z.object({
  notifications: z.array(notificationSchema),
  unread: z.number().int(),
});
export type NotificationList = z.infer<typeof notificationListSchema>;

export const NOTIFICATION_MESSAGES = {
  readWhat: 'Send the ids to mark as read, or all: true',
} as const;

export const markReadBodySchema = z.union(
  [
    z.strictObject({
      ids: z
        .array(z.number().int().positive().max(BIGINT_ID_MAX))
        .min(1)
        .max(NOTIFICATION_PAGE_MAX),
    }),
    z.strictObject({ all: z.literal(true) }),
  ],
  { error: NOTIFICATION_MESSAGES.readWhat },
);
export type MarkReadBody = z.infer<typeof markReadBodySchema>;
