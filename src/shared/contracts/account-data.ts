import { z } from '../validation.ts';
import { currentPasswordSchema } from './account-security.ts';
import { challengeSchema } from './challenge-view.ts';
import { notificationSchema } from './notifications.ts';
import { payoutSchema } from './payouts.ts';
import { publicUserSchema } from './user.ts';
import { transactionSchema } from './wallet.ts';

/**
 * The player's own data (docs/responsible-play.md): `GET /api/me/export` downloads it as one JSON
 * file, and `POST /api/me/close {password}` closes the account with the money rules of an admin's
 * deletion (decision 5), refused while money is in escrow or under review.
 */
export const ACCOUNT_CLOSE_MESSAGES = {
  closed: 'Your account is closed and you have been signed out.',
  adminAccount:
    'An admin account cannot be closed from the profile: another admin can delete it from the admin dashboard.',
  tooMany: 'attempts to close the account',
  moneyHeld: (reasons: readonly string[]) =>
    `Your account cannot be closed while money is in escrow or under review: ${reasons.join('; ')}.`,
  openChallenge: (id: number) => `open challenge #${id} holds your stake (cancel it first)`,
  acceptedChallenge: (id: number) =>
    `accepted challenge #${id} holds both stakes until it is played or called off`,
  disputedChallenge: (id: number) =>
    `challenge #${id} is in dispute, its money waiting for an admin's decision`,
  winningsUnderReview: (id: number, until: string) =>
    `your winnings from challenge #${id} are under review until ${until}`,
  payoutPending: (id: number, amount: string) =>
    `your payout request #${id} of ${amount} is still being processed`,
  tournamentOpen: (id: number) =>
    `tournament #${id} holds your entry fee until it starts (leave it first)`,
  tournamentPlaying: (id: number) =>
    `you are still playing in tournament #${id}, which pays its prizes when it ends`,
  tournamentOut: (id: number) =>
    `tournament #${id} may still pay you a prize, or refund your entry fee, until it ends`,
} as const;

/** `POST /api/me/close`: the password, so that a session left open cannot close the account. */
export const closeAccountBodySchema = z.strictObject({ password: currentPasswordSchema });
export type CloseAccountBody = z.input<typeof closeAccountBodySchema>;

export const closeAccountResponseSchema = z.object({
  message: z.string(),
  /** Dollars the wallet still held, moved to the operator's unclaimed funds (decision 5). */
  unclaimed: z.number(),
});
export type CloseAccountResponse = z.infer<typeof closeAccountResponseSchema>;

/** A deposit attempt as the player's export shows it; amounts in dollars. */
export const paymentRecordSchema = z.object({
  id: z.number().int(),
  method: z.enum(['card', 'crypto']),
  provider: z.string(),
  /** The provider's id of the payment (Stripe's payment intent, NOWPayments' payment). */
  providerPaymentId: z.string(),
  status: z.string(),
  requestedAmount: z.number(),
  /** What reached the wallet; null until credited. */
  creditedAmount: z.number().nullable(),
  currency: z.string(),
  /** Crypto: the coin, the amount and the address the player was asked to pay. */
  payCurrency: z.string().nullable(),
  payAmount: z.string().nullable(),
  payAddress: z.string().nullable(),
  actuallyPaid: z.string().nullable(),
  createdAt: z.string(),
  creditedAt: z.string().nullable(),
  expiresAt: z.string().nullable(),
});
export type PaymentRecord = z.infer<typeof paymentRecordSchema>;

/**
 * `GET /api/me/export`, an attachment. The profile is the user as the API shows it (never the
 * password hash, the two-factor secret or any token); the challenges, transactions, payouts and
 * notifications are the views the app shows the player, newest first, all of them.
 */
export const accountExportSchema = z.object({
  exportedAt: z.string(),
  profile: publicUserSchema,
  challenges: z.array(challengeSchema),
  transactions: z.array(transactionSchema),
  payments: z.array(paymentRecordSchema),
  payouts: z.array(payoutSchema),
  notifications: z.array(notificationSchema),
});
export type AccountExport = z.infer<typeof accountExportSchema>;

/** The file the export downloads as, e.g. `skillstake-data-ace_player-2026-11-25.json`. */
export const accountExportFileName = (username: string, at: Date): string =>
  `skillstake-data-${username}-${at.toISOString().slice(0, 10)}.json`;
