// A worker thread of `npm run bench:ws`: holds a share of the account sockets, answers the
// server's pings, and reports each BALANCE_UPDATE and NOTIFICATION with its arrival time and the
// socket's owner. Holding the sockets away from the thread that drives the load keeps the
// measurement from timing our own queue.
import { parentPort, workerData } from 'node:worker_threads';
import WebSocket from 'ws';

const { url, cookies, owners, concurrency } = workerData;
const now = () => performance.timeOrigin + performance.now();
const sockets = [];
let challengeUpdates = 0;

/** Opens the socket of the user `owner` with its session cookie. */
function open(cookie, owner) {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { headers: { cookie }, perMessageDeflate: false });
    socket.on('message', (data) => {
      const text = String(data);
      if (text.includes('"PING"')) socket.send('{"type":"PONG"}');
      else if (text.startsWith('{"type":"BALANCE_UPDATE"')) {
        const at = now();
        const message = JSON.parse(text);
        parentPort.postMessage({
          type: 'balance',
          owner,
          userId: message.userId,
          dollars: message.newBalance,
          at,
        });
      } else if (text.startsWith('{"type":"NOTIFICATION"')) {
        const at = now();
        const message = JSON.parse(text);
        parentPort.postMessage({ type: 'notification', owner, id: message.notification.id, at });
      } else challengeUpdates += 1;
    });
    socket.once('open', () => resolve(socket));
    socket.once('unexpected-response', (_request, response) =>
      reject(new Error(`socket refused: HTTP ${response.statusCode}`)),
    );
    socket.once('error', reject);
  });
}

let next = 0;
try {
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < cookies.length) {
        const index = next;
        next += 1;
        sockets.push(await open(cookies[index], owners[index]));
      }
    }),
  );
  parentPort.postMessage({ type: 'opened', count: sockets.length });
} catch (error) {
  parentPort.postMessage({ type: 'failed', message: String(error) });
}

parentPort.on('message', (message) => {
  if (message.type === 'report') {
    parentPort.postMessage({
      type: 'report',
      open: sockets.filter((socket) => socket.readyState === WebSocket.OPEN).length,
      challengeUpdates,
    });
  } else if (message.type === 'close') {
    for (const socket of sockets) socket.terminate();
    parentPort.close();
  }
});
