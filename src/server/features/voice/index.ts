/**
 * Voice-call signalling for the two players of a match (docs/architecture.md#realtime).
 */
export { voiceRoutes } from './routes.ts';
export { attachVoiceSignalling, leaveSocketIoUpgrades } from './signalling.ts';
