import { Headphones, Mic, MicOff, PhoneCall, PhoneOff } from 'lucide-react';
import { Button } from '#client/components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '#client/components/ui/card.tsx';
import { useVoiceCall, type VoiceRoom } from '../hooks/use-voice-call.ts';
import type { VoiceStatus } from '../lib/voice-call.ts';

const STATUS_TEXT: Record<VoiceStatus, string> = {
  idle: 'Not connected',
  starting: 'Asking for your microphone…',
  waiting: 'Waiting for your opponent to connect…',
  connecting: 'Connecting…',
  connected: 'Connected',
  interrupted: 'Connection lost. Press Connect to try again.',
};

export interface VoicePanelProps {
  room: VoiceRoom;
  userId: number;
  isCreator: boolean;
  opponentName: string;
}

/**
 * Audio-only voice chat with the opponent (docs/product.md#screens), shown to the two players only.
 */
export function VoicePanel({ room, userId, isCreator, opponentName }: VoicePanelProps) {
  const { state, attachAudio, connect, disconnect, toggleMute } = useVoiceCall(room, {
    userId,
    isCreator,
  });
  const active = state.status !== 'idle' && state.status !== 'interrupted';

  return (
    <Card aria-labelledby="voice-chat-title">
      <CardHeader>
        <CardTitle id="voice-chat-title" className="flex items-center gap-2">
          <Headphones aria-hidden="true" className="size-5" />
          VOICE CHAT
        </CardTitle>
      </CardHeader>
      <CardContent className="space-y-4">
        <p className="text-sm text-slate-300">
          Talk to <span className="font-semibold text-white">{opponentName}</span> while you play.
          Audio only.
        </p>
        <p
          role="status"
          aria-live="polite"
          data-voice-status={state.status}
          className="text-sm font-medium text-slate-100"
        >
          <span
            aria-hidden="true"
            className={`mr-2 inline-block size-2.5 rounded-full ${state.connected ? 'bg-emerald-400' : 'bg-slate-500'}`}
          />
          {STATUS_TEXT[state.status]}
        </p>
        <div className="flex flex-wrap gap-3">
          <Button
            variant="outline"
            onClick={toggleMute}
            disabled={!active}
            aria-pressed={state.muted}
          >
            {state.muted ? <MicOff aria-hidden="true" /> : <Mic aria-hidden="true" />}
            {state.muted ? 'Unmute' : 'Mute'}
          </Button>
          {active ? (
            <Button variant="destructive" onClick={disconnect}>
              <PhoneOff aria-hidden="true" />
              Disconnect
            </Button>
          ) : (
            <Button onClick={() => void connect()}>
              <PhoneCall aria-hidden="true" />
              Connect
            </Button>
          )}
        </div>
        <audio ref={attachAudio} autoPlay className="hidden" />
      </CardContent>
    </Card>
  );
}
