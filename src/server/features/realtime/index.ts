export { accountSocket } from './account-socket.ts';
