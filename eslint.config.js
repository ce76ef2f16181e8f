// Lint, including the architecture's import boundaries (ARCHITECTURE.md §2):
// the console never imports the server or the engine; the server never imports React;
// src/core stays free of I/O and of both sides.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const noServerFromConsole = {
  patterns: [
    { group: ['**/server/**', '**/engine/**', '**/sandbox/**'], message: 'The console must not import the server, the engine or the sandbox.' },
    { group: ['node:*', 'fastify', 'kysely', 'pg', '@electric-sql/*', 'argon2'], message: 'Server-only package in the console.' },
  ],
};
const noReactInServer = {
  patterns: [
    { group: ['react', 'react-dom', 'react/*', 'react-dom/*', '@mui/*', '@rjsf/*', 'swr', 'react-router*', '**/console/**', '**/generated/client.gen*', '**/generated/routes.gen*'], message: 'The server and the engine must not import React or the console.' },
  ],
};
// The server reaches the sandbox only through its composition root, which wires the ports.
const noSandboxInServer = {
  patterns: [...noReactInServer.patterns, { group: ['**/sandbox/**'], message: 'Only src/server/composition.ts imports the sandbox: it wires the ports (src/core/ports).' }],
};
const coreRules = {
  patterns: [
    { group: ['**/console/**', '**/server/**', '**/engine/**', '**/sandbox/**', 'react', 'react-dom', 'node:*', 'fastify', 'kysely', 'pg', 'swr'], message: 'src/core holds pure rules: no I/O, no React, no server.' },
  ],
};

export default tseslint.config(
  { ignores: ['node_modules', 'dist', 'src/generated', '.tools', '.data', 'tests/fixtures/mini-project/expected', 'storybook-static', 'tests/bench/results'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  { files: ['src/console/**'], rules: { 'no-restricted-imports': ['error', noServerFromConsole] } },
  { files: ['src/server/**', 'src/engine/**', 'src/sandbox/**'], rules: { 'no-restricted-imports': ['error', noReactInServer] } },
  { files: ['src/server/**'], ignores: ['src/server/composition.ts'], rules: { 'no-restricted-imports': ['error', noSandboxInServer] } },
  { files: ['src/core/**'], rules: { 'no-restricted-imports': ['error', coreRules] } },
);
