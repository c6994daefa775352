// Type-aware lint for the whole tree (src, test, bench, scripts, bin): `npm run lint`.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/', '.dist-*/', 'test/fixtures/'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-unsafe-argument': 'error',
      '@typescript-eslint/no-unsafe-assignment': 'error',
      '@typescript-eslint/no-unsafe-call': 'error',
      '@typescript-eslint/no-unsafe-member-access': 'error',
      '@typescript-eslint/no-unsafe-return': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
      // A terminal program matches control characters on purpose: escape sequences, C0 controls
      // that must never reach the screen, bytes a key press sends.
      'no-control-regex': 'off',
      // An async method without an await implements a promise-returning interface (a tool's
      // prepare, a sandbox's makeTempDir, a fake in a test): async makes a throw in it a rejection,
      // which its callers handle, instead of a synchronous throw they do not expect.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    files: ['**/*.cjs', '**/*.mjs', 'eslint.config.js'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: {
      globals: {
        require: 'readonly',
        module: 'writable',
        exports: 'writable',
        process: 'readonly',
        __dirname: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        globalThis: 'readonly',
      },
    },
  },
  {
    // CommonJS files load their dependencies with require(): that is what the format is.
    files: ['**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // vitest types its asymmetric matchers (expect.any, expect.stringContaining, …) as any, so an
    // expected value that uses one is an "unsafe assignment" by construction.
    files: ['test/**/*.ts', 'test/**/*.tsx'],
    rules: { '@typescript-eslint/no-unsafe-assignment': 'off' },
  },
);
