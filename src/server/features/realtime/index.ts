/**
 * The account socket, /ws: balances, notifications and changes pushed to every open tab
 * (docs/architecture.md#realtime).
 */
export { accountSocket } from './account-socket.ts';
