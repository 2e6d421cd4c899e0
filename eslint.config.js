import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist', 'data', 'node_modules', 'migrations', 'coverage', 'test-results'] },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'error',
    },
  },
  {
    files: ['**/*.test.{ts,tsx}', 'tests/**/*.ts'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
  {
    files: ['src/client/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    // A promise nobody awaits or handles: when it rejects, Node ends the process, and every
    // player on the instance loses the service (issue 35). lib/process-guards.ts keeps serving
    // then; these rules keep such promises from being written.
    files: ['src/server/**/*.ts'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': ['error', { ignoreVoid: false }],
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
  {
    // Only the ledger spells its tables (docs/decisions/0023-feature-boundaries.md): everyone
    // else calls its functions. dependency-cruiser keeps the schema's import to it; this keeps
    // SQL text to it.
    files: ['src/server/**/*.ts'],
    ignores: ['src/server/features/ledger/**', 'src/server/db/**', '**/*.test.ts', '**/testing/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'TemplateElement[value.raw=/ledger_(accounts|postings|transfers)\\b/]',
          message: "Only the ledger feature spells its tables: call the ledger's functions.",
        },
        {
          selector: 'Literal[value=/ledger_(accounts|postings|transfers)\\b/]',
          message: "Only the ledger feature spells its tables: call the ledger's functions.",
        },
      ],
    },
  },
  {
    // Tests stand in for callback APIs with async fakes (a pool's connect) on purpose.
    files: ['src/server/**/*.test.ts'],
    rules: { '@typescript-eslint/no-misused-promises': 'off' },
  },
  {
    // The server and the client meet only through src/shared.
    files: ['src/server/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['#client/*', '**/client/**'],
              message: 'The server may not import client code.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/client/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['#server/*', '**/server/**'],
              message: 'The client may not import server code.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['#server/*', '#client/*', '**/server/**', '**/client/**'],
              message: 'Shared code depends on neither side.',
            },
          ],
        },
      ],
    },
  },
);
