import { useEffect, useMemo, useSyncExternalStore } from 'react';
import { io } from 'socket.io-client';
import { VOICE_SOCKET_PATH } from '#shared/contracts/voice.ts';
import { toast } from '#client/lib/toast.ts';
import { getVoiceConfig } from '../api/get-voice-config.ts';
import { VoiceCall, type SignallingSocket, type VoiceCallState } from '../lib/voice-call.ts';

export const VOICE_TOASTS = {
  micFailed: {
    title: 'Microphone Access Failed',
    description: 'Please ensure you have granted microphone permissions.',
  },
  connected: { title: 'Connected', description: 'Voice chat connection established.' },
  muted: { title: 'Muted', description: 'Your microphone is now muted.' },
  unmuted: { title: 'Unmuted', description: 'Your microphone is now active.' },
  disconnected: { title: 'Disconnected', description: 'Voice chat has been disconnected.' },
} as const;

/** Where the call's browser-side pieces live: the <audio> element and the ICE servers. */
class CallMedia {
  audio: HTMLAudioElement | null = null;
  iceServers: RTCIceServer[] = [];
  attachAudio = (element: HTMLAudioElement | null) => {
    this.audio = element;
  };
  async loadIceServers(): Promise<void> {
    try {
      this.iceServers = (await getVoiceConfig()).iceServers;
    } catch {
      // Without the configured servers, host candidates still connect players on one network.
      this.iceServers = [];
    }
  }
}

/**
 * Whose call it is: an accepted challenge's, or a tournament match's being played
 * (docs/tournaments.md); the server admits only the two players of either.
 */
export type VoiceRoom = { challengeId: number } | { tournamentMatchId: number };

function createBrowserCall(
  roomKind: 'challengeId' | 'tournamentMatchId',
  roomId: number,
  userId: number,
  isCreator: boolean,
) {
  const media = new CallMedia();
  const call = new VoiceCall(
    { userId, isCreator },
    {
      getMicrophone: () => navigator.mediaDevices.getUserMedia({ audio: true, video: false }),
      openSocket: () =>
        io({
          path: VOICE_SOCKET_PATH,
          transports: ['websocket'],
          query: { [roomKind]: String(roomId), userId: String(userId) },
          reconnection: false,
        }) as SignallingSocket,
      createPeer: () => new RTCPeerConnection({ iceServers: media.iceServers }),
      onRemoteStream: (stream) => {
        if (media.audio) media.audio.srcObject = stream;
      },
    },
    {
      onConnected: () => toast(VOICE_TOASTS.connected),
      onDropped: () => toast(VOICE_TOASTS.disconnected),
      onRefused: (reason) =>
        toast({ title: 'Voice chat unavailable', description: reason, variant: 'destructive' }),
    },
  );
  return { call, media };
}

export interface VoiceCallControls {
  state: VoiceCallState;
  attachAudio(element: HTMLAudioElement | null): void;
  connect(): Promise<void>;
  disconnect(): void;
  toggleMute(): void;
}

/**
 * The voice call of one challenge or tournament match for the signed-in player; it ends when
 * the page is left. The player who is `isCreator` places the call.
 */
export function useVoiceCall(
  room: VoiceRoom,
  me: { userId: number; isCreator: boolean },
): VoiceCallControls {
  const { userId, isCreator } = me;
  const [roomKind, roomId] =
    'challengeId' in room
      ? (['challengeId', room.challengeId] as const)
      : (['tournamentMatchId', room.tournamentMatchId] as const);
  const { call, media } = useMemo(
    () => createBrowserCall(roomKind, roomId, userId, isCreator),
    [roomKind, roomId, userId, isCreator],
  );

  useEffect(() => () => call.stop(), [call]);

  const state = useSyncExternalStore(
    (listener) => call.subscribe(listener),
    () => call.snapshot,
  );

  return {
    state,
    attachAudio: media.attachAudio,
    connect: async () => {
      await media.loadIceServers();
      try {
        await call.start();
      } catch {
        toast({ ...VOICE_TOASTS.micFailed, variant: 'destructive' });
      }
    },
    disconnect: () => {
      call.stop();
      toast(VOICE_TOASTS.disconnected);
    },
    toggleMute: () => toast(call.toggleMute() ? VOICE_TOASTS.muted : VOICE_TOASTS.unmuted),
  };
}
