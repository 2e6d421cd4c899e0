// npm run check:bundle — the JavaScript a browser must download to show /auth and / (the entry
// chunk, the route's chunk, and every chunk either imports statically), gzip-compressed, against
// a budget of 170 kB each (issue 8), and that neither the entry nor /auth carries zod: building
// its schemas was the largest part of the entry's evaluation on a slow phone, and /auth checks
// nothing before its first paint (the lobby, /, checks the user its page names, so it needs zod).
// Reads Vite's manifest of the last `npm run build` and the chunks' source maps. Sizes are
// deterministic, so unlike the benchmarks this check may fail the build: exit 1 when a page is
// over budget or carries zod where it must not, 2 when there is no build to measure.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const CLIENT_DIR = 'dist/client';
// The build moves source maps out of what is served (scripts/keep-source-maps-private.mjs).
const SOURCE_MAP_DIR = 'dist/sourcemaps';
const MANIFEST = join(CLIENT_DIR, '.vite', 'manifest.json');
const BUDGET_BYTES = 170_000;
// The pages of the budget and the modules React.lazy loads to render each: its route
// (src/client/app/router.tsx). Chunks loaded only for an action (a dialog's form, the profile
// menu, the first toast) are not part of showing a page.
const PAGES = [
  { path: '/auth', modules: ['app/routes/auth.tsx'], zodFree: true },
  { path: '/', modules: ['app/routes/home.tsx'], zodFree: false },
];
const ZOD_SOURCE = '/node_modules/zod/';

if (!existsSync(MANIFEST)) {
  process.stderr.write(`${MANIFEST} not found: run \`npm run build\` first.\n`);
  process.exit(2);
}
const manifest = JSON.parse(readFileSync(MANIFEST, 'utf8'));
const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry);
if (!entryKey) {
  process.stderr.write(`${MANIFEST} names no entry chunk.\n`);
  process.exit(2);
}

/** The chunk of `key` and every chunk it imports statically, transitively, each once. */
function staticClosure(key, files = new Set()) {
  const chunk = manifest[key];
  if (!chunk) throw new Error(`${key} is not in the manifest`);
  if (files.has(chunk.file)) return files;
  files.add(chunk.file);
  for (const imported of chunk.imports ?? []) staticClosure(imported, files);
  return files;
}

const gzipCache = new Map();
function gzipBytes(file) {
  if (!gzipCache.has(file)) {
    gzipCache.set(file, gzipSync(readFileSync(join(CLIENT_DIR, file)), { level: 9 }).length);
  }
  return gzipCache.get(file);
}

/** The chunks among `files` built from zod's sources, read from their source maps. */
function chunksWithZod(files) {
  return [...files].filter((file) => {
    const map = JSON.parse(readFileSync(join(SOURCE_MAP_DIR, `${file}.map`), 'utf8'));
    return map.sources.some((source) => source.includes(ZOD_SOURCE));
  });
}

const kB = (bytes) => `${(bytes / 1000).toFixed(1)} kB`;
let over = false;
const entryFiles = staticClosure(entryKey);
const entryBytes = [...entryFiles].reduce((sum, file) => sum + gzipBytes(file), 0);
process.stdout.write(
  `JavaScript to show each page (gzip -9), budget ${kB(BUDGET_BYTES)}:\n` +
    `  entry ${manifest[entryKey].file} and its imports: ${entryFiles.size} files, ${kB(entryBytes)}\n`,
);
const zodIn = [];
if (chunksWithZod(entryFiles).length > 0) zodIn.push('the entry');
for (const page of PAGES) {
  const files = new Set(entryFiles);
  for (const module of page.modules) staticClosure(module, files);
  const total = [...files].reduce((sum, file) => sum + gzipBytes(file), 0);
  const routeOnly = total - entryBytes;
  const verdict = total <= BUDGET_BYTES ? 'ok' : 'OVER BUDGET';
  if (total > BUDGET_BYTES) over = true;
  if (page.zodFree && chunksWithZod(files).length > 0) zodIn.push(page.path);
  process.stdout.write(
    `  ${page.path.padEnd(6)} ${kB(total).padStart(9)} (${files.size} files; ` +
      `${page.modules.join(' + ')} and their own imports ${kB(routeOnly)}) ${verdict}\n`,
  );
}
const zodFreePlaces = [
  'the entry',
  ...PAGES.filter((page) => page.zodFree).map((page) => page.path),
];
process.stdout.write(
  `zod, not allowed in ${zodFreePlaces.join(' and ')}: ` +
    `${zodIn.length === 0 ? 'ok' : `FOUND IN ${zodIn.join(' and ')}`}\n`,
);
if (over) {
  process.stderr.write(
    'A page is over its JavaScript budget: split a route or a heavy dependency (see ' +
      'manualChunks and React.lazy in vite.config.ts and src/client/app/router.tsx).\n',
  );
}
if (zodIn.length > 0) {
  process.stderr.write(
    `zod is in the JavaScript of ${zodIn.join(' and ')}: a module there imports a contract or ` +
      '#shared/validation.ts. Load the contract on first use instead, as ' +
      'src/client/features/auth/api/get-user.ts does (see ZOD in vite.config.ts).\n',
  );
}
process.exit(over || zodIn.length > 0 ? 1 : 0);
