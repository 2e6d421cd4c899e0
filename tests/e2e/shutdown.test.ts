import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startApp } from './harness.ts';

describe('the server process', () => {
  it('on SIGTERM answers the requests in flight, releases the database and exits 0', async () => {
    const app = await startApp();
    const lock = join(app.dataDir, 'pglite.lock');
    expect(existsSync(lock)).toBe(true);
    const settled = Promise.allSettled(
      Array.from({ length: 20 }, () => fetch(`${app.baseUrl}/api/ready`)),
    );
    await new Promise((resolve) => setTimeout(resolve, 5));
    const code = await app.stop({ keepData: true });
    const answers = await settled;
    // Every request the server read got an answer (ready, or 503 once closing began); a
    // connection it had not read from yet may be reset, which a client retries.
    for (const answer of answers) {
      if (answer.status === 'fulfilled') expect([200, 503]).toContain(answer.value.status);
    }
    expect(answers.some((a) => a.status === 'fulfilled' && a.value.status === 200)).toBe(true);
    expect(code).toBe(0);
    expect(existsSync(lock)).toBe(false);
    rmSync(app.dataDir, { recursive: true, force: true });
  });
});
