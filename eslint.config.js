import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';

const pureCoreGlobals = [
  { name: 'fetch', message: 'Use the Http port.' },
  { name: 'WebSocket', message: 'Use the SocketFactory port.' },
  { name: 'localStorage', message: 'Use the Storage port.' },
  { name: 'setTimeout', message: 'Use the Clock port or an XState `after` delay.' },
  { name: 'setInterval', message: 'Use the Clock port or an XState `after` delay.' },
];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', '.test-data/**', 'test-results/**', 'playwright-report/**', '.reports/**', 'bench/.tmp/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['src/machines/**/*.ts', 'src/streams/**/*.ts', 'src/core/**/*.ts', 'src/api/**/*.ts', 'src/ui/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-globals': ['error', ...pureCoreGlobals],
      'no-restricted-properties': [
        'error',
        { object: 'Date', property: 'now', message: 'Use the Clock port; time arrives in frames and events.' },
        { object: 'Math', property: 'random', message: 'Use the Random port.' },
        { object: 'window', property: 'setTimeout', message: 'Use the Clock port.' },
      ],
      'no-restricted-syntax': [
        'error',
        { selector: "NewExpression[callee.name='Date'][arguments.length=0]", message: 'Use the Clock port.' },
        { selector: "NewExpression[callee.name='WebSocket']", message: 'Use the SocketFactory port.' },
      ],
    },
  },
  {
    // The UI reaches the ports through the core's own methods and stores, never `core.ports.*`
    // (importing src/ports is refused by dependency-cruiser's `ui-imports-ports`). The rule's
    // options replace the block above's for these files, so its selectors are repeated.
    files: ['src/ui/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: "NewExpression[callee.name='Date'][arguments.length=0]", message: 'Use the Clock port.' },
        { selector: "NewExpression[callee.name='WebSocket']", message: 'Use the SocketFactory port.' },
        { selector: "MemberExpression[property.name='ports']", message: 'The UI reaches the ports through the core (core.now(), core.newId(), core.device, core.favorites, …).' },
      ],
    },
  },
  {
    files: ['**/*.{js,mjs,cjs}'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
);
