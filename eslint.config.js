import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';
import reactHooks from 'eslint-plugin-react-hooks';
import layers from './scripts/eslint-layers.js';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'data/'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    // Type-aware rules: each file is checked with the project its tsconfig.json puts it in.
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
  },
  prettier,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': ['error', { allow: ['error'] }],
      // Of the type-aware recommended rules, these stay off:
      // - require-await: an async function without await is how a Fastify handler, a driver or a
      //   fake of one returns its promise; it is no bug here;
      // - unbound-method: method-shorthand props (`done(): void`) and Kysely's expression
      //   builders are plain functions, which the rule cannot tell from methods;
      // - no-unsafe-*: JSON, pg rows and test bodies come in as any and are checked where used
      //   (TypeBox at the edges); no-unnecessary-type-assertion: a stale `!` or `as` is noise,
      //   not a bug (there are some 360, most in tests; `eslint --fix` removes them).
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/unbound-method': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unnecessary-type-assertion': 'off',
      // String() and templates of what came in are how refusals and output quote it, whatever it is.
      '@typescript-eslint/no-base-to-string': 'off',
      '@typescript-eslint/restrict-template-expressions': 'off',
      // Passing on what was caught is rethrowing it; a rejection with a string or a literal is still refused.
      '@typescript-eslint/prefer-promise-reject-errors': [
        'error',
        { allowThrowingAny: true, allowThrowingUnknown: true },
      ],
      // node:test's describe and it return promises the runner itself waits for.
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            { from: 'package', package: 'node:test', name: ['describe', 'it', 'test', 'suite', 'before', 'after'] },
          ],
        },
      ],
    },
  },
  {
    // JavaScript (the bin script, the reporter, these lint helpers) is in no TypeScript project.
    files: ['**/*.{js,mjs,cjs}'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    // Imports point down the layers, and none goes round in a cycle (scripts/eslint-layers.js).
    files: ['src/**/*.ts', 'console/src/**/*.{ts,tsx}'],
    plugins: { acacia: layers },
    rules: { 'acacia/layers': 'error', 'acacia/no-cycles': 'error' },
  },
  {
    // The web console: React's rules of hooks, and no console output in the browser either.
    files: ['console/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    // Migrations are frozen in time and typed against Kysely<any> on purpose.
    files: ['src/store/migrations/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['bin/**/*.js'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
);
