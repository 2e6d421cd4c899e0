import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const guards = fileURLToPath(new URL('./process-guards.ts', import.meta.url));

/**
 * Runs a small program in a process of its own, where a promise rejects with nothing to handle
 * it, and answers what it printed and how it ended. `guarded` installs the handler first.
 */
async function rejectUnhandled(guarded: boolean): Promise<{ code: number; stdout: string }> {
  const program = `
    import { keepServingOnUnhandledRejections } from ${JSON.stringify(guards)};
    const logged = [];
    if (${guarded}) keepServingOnUnhandledRejections({ error: (fields, message) => logged.push(message) });
    Promise.reject(new Error('nobody handles this'));
    setTimeout(() => process.stdout.write(JSON.stringify({ stillServing: true, logged })), 200);
  `;
  try {
    const { stdout } = await run(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '--eval', program],
      { cwd: process.cwd() },
    );
    return { code: 0, stdout };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string };
    return { code: failed.code ?? -1, stdout: failed.stdout ?? '' };
  }
}

describe('keepServingOnUnhandledRejections', () => {
  it('keeps the process running past a rejection nobody handles, and logs it', async () => {
    const { code, stdout } = await rejectUnhandled(true);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual({
      stillServing: true,
      logged: ['a promise rejected with nothing to handle it; still serving'],
    });
  });

  it('is what keeps it running: without it, Node ends the process', async () => {
    const { code, stdout } = await rejectUnhandled(false);
    expect(code).not.toBe(0);
    expect(stdout).toBe('');
  });
});
