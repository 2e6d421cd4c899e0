export { voiceRoutes } from './routes.ts';
export { attachVoiceSignalling, leaveSocketIoUpgrades } from './signalling.ts';
