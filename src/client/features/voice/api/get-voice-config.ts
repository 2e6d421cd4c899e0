import { voiceConfigSchema, type VoiceConfig } from '#shared/contracts/voice.ts';
import { getJson } from '#client/lib/api-client.ts';

/** ICE (STUN/TURN) servers come from the server's configuration (docs/architecture.md#realtime). */
export function getVoiceConfig(): Promise<VoiceConfig> {
  return getJson('/api/voice/config', voiceConfigSchema);
}
