// Writes a Brotli (.br) and a gzip (.gz) copy beside each text file of the client build, once at
// build time, so that the server sends them compressed without compressing per request
// (@fastify/static's preCompressed option in src/server/app.ts picks the copy the browser
// accepts). Part of `npm run build:client`.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const ROOT = 'dist/client';
const COMPRESSIBLE = /\.(js|css|html|svg|json|txt)$/;
// Below this, compression saves less than the bytes of a response header.
const MIN_BYTES = 1024;

function* files(dir) {
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) yield* files(path);
    else yield path;
  }
}

let raw = 0;
let brotli = 0;
let count = 0;
for (const path of files(ROOT)) {
  if (!COMPRESSIBLE.test(path) || path.includes('/.vite/')) continue;
  const content = readFileSync(path);
  if (content.length < MIN_BYTES) continue;
  const br = brotliCompressSync(content, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
    },
  });
  writeFileSync(`${path}.br`, br);
  writeFileSync(`${path}.gz`, gzipSync(content, { level: 9 }));
  raw += content.length;
  brotli += br.length;
  count += 1;
}
process.stdout.write(
  `compressed ${count} client files: ${(raw / 1000).toFixed(0)} kB → ${(brotli / 1000).toFixed(0)} kB brotli\n`,
);
