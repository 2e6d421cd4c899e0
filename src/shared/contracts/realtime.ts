import { z } from '../validation.ts';
import { notificationSchema } from './notifications.ts';

/** Messages on the account socket `/ws` (docs/product.md#data, docs/architecture.md#realtime). */
export const serverMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('PING') }),
  z.object({
    type: z.literal('BALANCE_UPDATE'),
    userId: z.number().int(),
    /** docs/product.md#data: the balance as the API shows it, available plus under review. */
    newBalance: z.number(),
    available: z.number().optional(),
    underReview: z.number().optional(),
  }),
  z.object({ type: z.literal('NOTIFICATION'), notification: notificationSchema }),
  z.object({
    type: z.literal('CHALLENGE_UPDATED'),
    challengeId: z.number().int(),
    status: z.string(),
  }),
  /** A tournament's entries or bracket changed (docs/tournaments.md): its pages read it again. */
  z.object({
    type: z.literal('TOURNAMENT_UPDATED'),
    tournamentId: z.number().int(),
    status: z.string(),
  }),
]);
export type ServerMessage = z.infer<typeof serverMessageSchema>;

export const clientMessageSchema = z.object({ type: z.literal('PONG') });
export type ClientMessage = z.infer<typeof clientMessageSchema>;

/** The server closes the account socket with this code when its session ended: no reconnect. */
export const SESSION_ENDED_CLOSE_CODE = 4001;

/**
 * docs/product.md#states, docs/product.md#constants: how the browser reconnects the account socket.
 */
export const REALTIME_RECONNECT = {
  maxAttempts: 5,
  initialDelayMs: 1000,
  maxDelayMs: 30_000,
} as const;
