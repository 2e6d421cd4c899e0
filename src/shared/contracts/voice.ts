import { z } from '../validation.ts';
import { idFromJson, idFromText } from './ids.ts';

/** The voice signalling socket (docs/product.md#calls): socket.io at /socket.io. */
export const VOICE_SOCKET_PATH = '/socket.io';

/** Why a handshake with a missing, malformed or out-of-range id is refused. */
const VOICE_BAD_QUERY = 'challengeId and userId are required';

/**
 * A call is for the two players of an accepted challenge (`challengeId`) or of a tournament
 * match being played (`tournamentMatchId`, docs/tournaments.md): one of the two, never both.
 */
export const voiceHandshakeQuerySchema = z
  .object({
    challengeId: idFromText(VOICE_BAD_QUERY).optional(),
    tournamentMatchId: idFromText(VOICE_BAD_QUERY).optional(),
    userId: idFromText(VOICE_BAD_QUERY),
  })
  .refine((query) => (query.challengeId === undefined) !== (query.tournamentMatchId === undefined));

/** Reasons a connection is refused, as the client sees them in `connect_error`. */
export const VOICE_REFUSALS = {
  badQuery: VOICE_BAD_QUERY,
  origin: 'Cross-origin connection refused',
  session: 'Unauthorized: please log in',
  wrongUser: 'userId does not match your session',
  notParticipant: 'Only the two players of this challenge can use its voice chat',
  notAccepted: 'Voice chat is open only while the challenge is accepted',
  matchNotPlaying: 'Voice chat is open only while the tournament match is being played',
  unavailable: 'Voice chat is unavailable right now. Please try again.',
} as const;

/** A WebRTC session description or ICE candidate, relayed as it is. */
export const signalPayloadSchema = z.object({
  userId: idFromJson(VOICE_BAD_QUERY),
  signal: z.record(z.string(), z.unknown()),
});
export type SignalPayload = z.infer<typeof signalPayloadSchema>;

export const SIGNAL_BYTES_MAX = 16 * 1024;
export const SIGNALS_PER_WINDOW = 100;
export const SIGNAL_WINDOW_MS = 10_000;

export const iceServerSchema = z.object({
  urls: z.union([z.string(), z.array(z.string())]),
  username: z.string().optional(),
  credential: z.string().optional(),
});
export const voiceConfigSchema = z.object({ iceServers: z.array(iceServerSchema) });
export type VoiceConfig = z.infer<typeof voiceConfigSchema>;
