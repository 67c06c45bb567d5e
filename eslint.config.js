// ESLint for the whole TypeScript tree, type-aware (typescript-eslint's recommended type-checked
// rules). `npm run lint` runs it with the Prettier check; `npm test` runs `npm run lint`.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'eslint.config.js',
      'dist/**',
      'dist-bin/**',
      'node_modules/**',
      'coverage/**',
      'test-artifacts/**',
      'bench/.cache/**',
      '**/*.mjs',
      '**/*.cjs',
      'bin/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
    },
  },
  {
    // Tests read JSON answers as `any` on purpose: the shape is what the test asserts, field by field.
    files: ['**/*.test.ts', 'test/**/*.ts', 'src/test-support/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      // Spies replace methods by reference (vi.spyOn(prototype, 'write')), and table rows are async
      // functions whether or not a row awaits.
      '@typescript-eslint/unbound-method': 'off',
      '@typescript-eslint/require-await': 'off',
    },
  },
);
