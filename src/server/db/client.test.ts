import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openEmbedded } from './client.ts';

const folder = mkdtempSync(join(tmpdir(), 'skillstake-lock-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('the embedded database lock', () => {
  it('refuses a second opening of the same folder and frees it on close', async () => {
    const dataDir = join(folder, 'a');
    const first = await openEmbedded(dataDir);
    await expect(openEmbedded(dataDir)).rejects.toThrow(/already open/);
    await first.close();
    expect(existsSync(join(dataDir, 'pglite.lock'))).toBe(false);
    const again = await openEmbedded(dataDir);
    await again.close();
  });

  it('refuses a folder locked by another live process, and takes over a dead one’s lock', async () => {
    const dataDir = join(folder, 'b');
    const first = await openEmbedded(dataDir);
    await first.close();
    // PID 1 is always alive (and never ours in a test worker).
    writeFileSync(join(dataDir, 'pglite.lock'), '1');
    await expect(openEmbedded(dataDir)).rejects.toThrow(/in use by process 1/);
    // A PID far above any real one is not running.
    writeFileSync(join(dataDir, 'pglite.lock'), '2147483000');
    const taken = await openEmbedded(dataDir);
    await taken.close();
  });
});
