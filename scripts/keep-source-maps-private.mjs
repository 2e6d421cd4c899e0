// Moves the client's source maps out of what the server sends (dist/client) into
// dist/sourcemaps, keeping their relative paths. Vite writes them "hidden" (no sourceMappingURL
// comment in the scripts), so browsers never ask for them; they stay beside the build for error
// reports and for `npm run check:bundle`. Part of `npm run build:client`.
import { mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

const CLIENT = 'dist/client';
const MAPS = 'dist/sourcemaps';

function* files(dir) {
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) yield* files(path);
    else yield path;
  }
}

rmSync(MAPS, { recursive: true, force: true });
let count = 0;
for (const path of files(CLIENT)) {
  if (!path.endsWith('.map')) continue;
  const target = join(MAPS, relative(CLIENT, path));
  mkdirSync(dirname(target), { recursive: true });
  renameSync(path, target);
  count += 1;
}
process.stdout.write(`moved ${count} source maps to ${MAPS}\n`);
