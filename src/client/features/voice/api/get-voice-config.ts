import { voiceConfigSchema, type VoiceConfig } from '#shared/contracts/voice.ts';
import { getJson } from '#client/lib/api-client.ts';

/** ICE (STUN/TURN) servers come from the server's configuration (DESIGN §6). */
export function getVoiceConfig(): Promise<VoiceConfig> {
  return getJson('/api/voice/config', voiceConfigSchema);
}
