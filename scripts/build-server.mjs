// Bundles the server into dist/server/main.js. Dependencies stay in node_modules; only our own
// code (src/server and src/shared, through the package.json "imports" aliases) is bundled.
import { build } from 'esbuild';

await build({
  entryPoints: ['src/server/main.ts'],
  outfile: 'dist/server/main.js',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
});
