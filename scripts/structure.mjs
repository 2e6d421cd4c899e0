// The server's boundaries and the house's size, as figures with their goals
// (docs/decisions/0023-feature-boundaries.md). dependency-cruiser reads the import graph and
// checks .dependency-cruiser.cjs; this prints its violations, then one line of figures, and exits
// 1 when either a rule is broken or a figure misses its goal. `npm run lint` runs it.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const GOALS = { internals: 0, mutual: 0, largestLines: 600, readmeBytes: 12_000, citations: 0 };
const isTest = (path) => /\.test\.tsx?$|\/testing\/|\/test-utils\//.test(path);
const featureOf = (path) => /^src\/server\/features\/([^/]+)\//.exec(path)?.[1];

const cruise = JSON.parse(
  execFileSync(
    join('node_modules', '.bin', 'depcruise'),
    ['src/server', '--config', '.dependency-cruiser.cjs', '--output-type', 'json'],
    { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 },
  ),
);

let internals = 0;
const pairs = new Set();
for (const module of cruise.modules) {
  const from = featureOf(module.source);
  if (!from || isTest(module.source)) continue;
  for (const dependency of module.dependencies) {
    const to = featureOf(dependency.resolved);
    if (!to || to === from) continue;
    pairs.add(`${from}>${to}`);
    if (!dependency.resolved.endsWith(`/features/${to}/index.ts`)) internals += 1;
  }
}
const mutual = [...pairs]
  .filter((pair) => pair < pair.split('>').reverse().join('>'))
  .filter((pair) => pairs.has(pair.split('>').reverse().join('>')));

const sources = [];
(function walk(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path);
    else if (/\.(ts|tsx|mjs|js|cjs)$/.test(name)) sources.push(path);
  }
})('src');
let largest = { path: '', lines: 0 };
let citations = 0;
for (const path of sources) {
  const text = readFileSync(path, 'utf8');
  citations += (text.match(/\b(SPEC|DESIGN)(\.md)? ?§/g) ?? []).length;
  const lines = text.split('\n').length;
  if (!isTest(path) && lines > largest.lines) largest = { path, lines };
}
const readmeBytes = statSync('README.md').size;

for (const violation of cruise.summary.violations) {
  process.stdout.write(`${violation.rule.name}: ${violation.from} → ${violation.to}\n`);
}
const figures = [
  [
    "imports into another feature's internals",
    internals,
    internals <= GOALS.internals,
    `${GOALS.internals}`,
  ],
  [
    'feature pairs that import each other',
    mutual.length,
    mutual.length <= GOALS.mutual,
    `${GOALS.mutual}`,
  ],
  [
    `largest production file (${largest.path})`,
    largest.lines,
    largest.lines <= GOALS.largestLines,
    `≤ ${GOALS.largestLines} lines`,
  ],
  ['README.md', readmeBytes, readmeBytes <= GOALS.readmeBytes, `≤ ${GOALS.readmeBytes} bytes`],
  [
    'comments citing SPEC or DESIGN sections',
    citations,
    citations <= GOALS.citations,
    `${GOALS.citations}`,
  ],
];
for (const [what, value, met, goal] of figures) {
  process.stdout.write(`${met ? 'ok  ' : 'MISS'} ${what}: ${value} (goal ${goal})\n`);
}
if (mutual.length > 0) process.stdout.write(`mutual pairs: ${mutual.join(', ')}\n`);
const failed = cruise.summary.error > 0 || figures.some(([, , met]) => !met);
process.stdout.write(
  `${cruise.summary.totalCruised} modules, ${cruise.summary.totalDependenciesCruised} dependencies, ${cruise.summary.error} rule violations\n`,
);
process.exit(failed ? 1 : 0);
