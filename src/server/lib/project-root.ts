import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The folder holding package.json. The server runs from `src/` in development and tests and from
 * the bundle in `dist/` in production, so paths to `migrations/` and `dist/client/` are found from
 * here rather than from this file's own location.
 */
export function projectRoot(): string {
  let folder = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(folder, 'package.json'))) {
    const parent = dirname(folder);
    if (parent === folder) throw new Error('package.json not found above the server code');
    folder = parent;
  }
  return folder;
}
