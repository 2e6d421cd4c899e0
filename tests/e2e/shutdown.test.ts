import { existsSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startApp } from './harness.ts';

/**
 * GET `url` with `Expect: 100-continue`. Node's HTTP server writes `100 Continue` as it reads the
 * request's head and hands the request to Fastify in the same turn, before it can see a signal:
 * once `read` resolves, the server has taken the request on and passed Fastify's closing check,
 * so the request is in flight on the server, not merely sent by the client.
 */
function getOnceRead(url: string): { read: Promise<void>; status: Promise<number> } {
  const sent = request(url, { headers: { expect: '100-continue' } });
  const read = new Promise<void>((resolve, reject) => {
    sent.once('continue', resolve);
    sent.once('error', reject);
  });
  const status = new Promise<number>((resolve, reject) => {
    sent.once('response', (response) => {
      response.resume();
      response.once('end', () => resolve(response.statusCode ?? 0));
    });
    sent.once('error', reject);
  });
  sent.end();
  return { read, status };
}

describe('the server process', () => {
  it('on SIGTERM answers the requests in flight, releases the database and exits 0', async () => {
    const app = await startApp();
    const lock = join(app.dataDir, 'pglite.lock');
    expect(existsSync(lock)).toBe(true);
    const inFlight = getOnceRead(`${app.baseUrl}/api/ready`);
    const others = Promise.allSettled(
      Array.from({ length: 20 }, () => fetch(`${app.baseUrl}/api/ready`)),
    );
    // SIGTERM goes once the server has read a request, not after a guessed wait: on a busy
    // machine it could arrive before the server had read any of them, and then every request
    // was refused (reset or 503) and none was in flight.
    await inFlight.read;
    const code = await app.stop({ keepData: true });
    expect(await inFlight.status).toBe(200);
    // The others were read before closing began (ready), after it (503), or not at all: a
    // connection the server had not read from yet may be reset, which a client retries.
    for (const answer of await others) {
      if (answer.status === 'fulfilled') expect([200, 503]).toContain(answer.value.status);
    }
    expect(code).toBe(0);
    expect(existsSync(lock)).toBe(false);
    rmSync(app.dataDir, { recursive: true, force: true });
  });
});
