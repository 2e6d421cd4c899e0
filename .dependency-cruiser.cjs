/**
 * The server's boundaries (docs/decisions/0023-feature-boundaries.md), checked by
 * dependency-cruiser in `npm run lint`: a feature's index.ts is its public surface, features form
 * the layers below and never import each other both ways, procedures sit above every feature,
 * and only the ledger reads or writes the ledger's tables. Tests may reach into what they test.
 */

/** The features, bottom up: a feature may import only features of a lower layer. */
const LAYERS = [
  ['ledger', 'audit', 'mail', 'notifications', 'uploads', 'realtime', 'health'],
  ['accounts'],
  ['responsible-gaming', 'risk'],
  ['challenges', 'payments'],
  ['tournaments', 'payouts', 'players', 'reports'],
  ['voice'],
  ['insights'],
  ['admin', 'pages'],
];

const FEATURES = 'src/server/features';
const NOT_TESTS = '\\.test\\.ts$|/testing/';
const either = (names) => `(${names.join('|')})`;

const layerRules = LAYERS.flatMap((layer, index) => {
  const sameOrAbove = LAYERS.slice(index).flat();
  return layer.map((feature) => ({
    name: `layer-${feature}`,
    comment: `${feature} may import only features of a lower layer than its own (see LAYERS).`,
    severity: 'error',
    from: { path: `^${FEATURES}/${feature}/`, pathNot: NOT_TESTS },
    to: {
      path: `^${FEATURES}/${either(sameOrAbove.filter((name) => name !== feature))}/`,
    },
  }));
});

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'A module may not depend on itself through others.',
      severity: 'error',
      from: { path: '^src/server/', pathNot: NOT_TESTS },
      // The app's context (src/server/context.ts) holds parts that features make, and every
      // feature names its type: a cycle of type imports alone is not one at run time.
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    {
      name: 'feature-through-index',
      comment: 'Another feature is reached through its index.ts, never its files.',
      severity: 'error',
      from: { path: `^${FEATURES}/([^/]+)/`, pathNot: NOT_TESTS },
      to: { path: `^${FEATURES}/(?!$1/)[^/]+/(?!index\\.ts$)` },
    },
    {
      name: 'outside-through-index',
      comment: 'Code outside the features reaches a feature through its index.ts.',
      severity: 'error',
      from: { path: '^src/server/(?!features/)', pathNot: NOT_TESTS },
      to: { path: `^${FEATURES}/[^/]+/(?!index\\.ts$)` },
    },
    {
      name: 'known-feature',
      comment: 'Every feature has a place in LAYERS.',
      severity: 'error',
      from: { path: `^${FEATURES}/(?!${either(LAYERS.flat())}/)` },
      to: {},
    },
    ...layerRules,
    {
      name: 'features-below-procedures',
      comment: 'What spans several features (src/server/procedures) sits above all of them.',
      severity: 'error',
      from: { path: `^${FEATURES}/`, pathNot: NOT_TESTS },
      to: { path: '^src/server/procedures/' },
    },
    {
      name: 'infrastructure-below-features',
      comment: 'lib, db and plugins know no feature; app.ts hands them what they need.',
      severity: 'error',
      from: { path: '^src/server/(lib|db|plugins)/', pathNot: NOT_TESTS },
      to: {
        path: '^src/server/(features|procedures)/',
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'ledger-owns-its-tables',
      comment:
        'Only the ledger reads or writes ledger_* tables: everyone else calls its functions.',
      severity: 'error',
      from: { path: '^src/server/', pathNot: `^src/server/(features/ledger|db)/|${NOT_TESTS}` },
      to: { path: '^src/server/db/schema/ledger\\.ts$' },
    },
  ],
  options: {
    includeOnly: '^src/server/',
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'node', 'default'],
      extensions: ['.ts', '.js', '.json'],
    },
  },
};
