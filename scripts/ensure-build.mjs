// Builds the client and the server when dist/ is missing or older than any source file, so that
// `npm start` on a fresh clone (or after a pull) always serves what is in the tree.
import { execSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const outputs = ['dist/client/index.html', 'dist/server/main.js'];
const inputs = ['src', 'migrations', 'package.json', 'package-lock.json', 'vite.config.ts'];

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

const builtAt = Math.min(...outputs.map((path) => (existsSync(path) ? statSync(path).mtimeMs : 0)));
const changedAt = Math.max(...inputs.map(newestMtime));
if (builtAt === 0 || changedAt > builtAt) {
  process.stdout.write('Building the app (client and server)...\n');
  execSync('npm run build', { stdio: 'inherit' });
}
