// Lint, including every import boundary of ARCHITECTURE.md §2, one block per row of its table
// ("may import"). tests/unit/lint-boundaries.test.ts proves each boundary fires for a forbidden
// import and stays quiet for an allowed one; a new boundary gets a row there too.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const REACT = ['react', 'react-dom', 'react/*', 'react-dom/*', '@mui/*', '@rjsf/*', 'swr', 'react-router*'];
const SERVER_PACKAGES = ['node:*', 'fastify', 'kysely', 'pg', '@electric-sql/*', 'argon2'];

/** src/console: src/core, src/generated (and browser packages). */
const consoleRules = {
  patterns: [
    { group: ['**/server/**', '**/engine/**', '**/sandbox/**', '**/generators/**'], message: 'The console must not import the server, the engine, the sandbox or the generator.' },
    { group: SERVER_PACKAGES, message: 'Server-only package in the console.' },
  ],
};

/**
 * The runtime and the features read the router through its seam (src/console/runtime/navigation.tsx),
 * so that a first-load page draws their screens without react-router; only the app's
 * wiring (src/console/app), the shell around the routes and the stories import it.
 */
const runtimeRules = {
  patterns: [...consoleRules.patterns, { group: ['react-router', 'react-router-dom'], message: 'Read the router through src/console/runtime/navigation.tsx.' }],
};

/**
 * src/server: src/core, src/generated, the engine (its top-level files, and each room, a folder of
 * src/engine, only through its index.ts); src/sandbox only from the composition root. Never React or the console.
 */
const ENGINE_ROOM_MESSAGE = 'The server reaches an engine room through its index.ts (src/engine/<room>/index.ts).';
const serverRules = (sandbox) => ({
  patterns: [
    { group: [...REACT, '**/console/**', '**/generated/client.gen*', '**/generated/routes.gen*'], message: 'The server must not import React or the console.' },
    { group: ['**/generators/**'], message: 'The server must not import the generator.' },
    // Gitignore semantics: a file under a room's subfolder (channels/whatsapp/index.ts) stays refused,
    // since a path under an excluded folder cannot be re-included.
    { group: ['**/engine/*/**', '!**/engine/*/index.ts'], message: ENGINE_ROOM_MESSAGE },
    ...(sandbox ? [] : [{ group: ['**/sandbox/**'], message: 'Only the composition root wires the sandbox into the server.' }]),
  ],
});

/** src/engine: src/core, src/generated (types and value tables). Never the server, the console or the sandbox. */
const engineRules = {
  patterns: [
    { group: [...REACT, '**/console/**', '**/generated/client.gen*', '**/generated/routes.gen*'], message: 'The engine must not import React or the console.' },
    { group: ['**/server/**', '**/sandbox/**', '**/generators/**'], message: 'The engine must not import the server, the sandbox or the generator.' },
  ],
};

/**
 * src/sandbox: src/core and the engine's protocol codecs (the stand-ins speak the same wire
 * format the engine does). The codecs are named here; when a codec moves, move its line.
 * src/generated is allowed too: the stand-ins read the generated value tables (plain data).
 */
const ENGINE_PROTOCOL_CODECS = ['channels/sms/wire', 'channels/shared/meta-signature', 'channels/rcs/webhook', 'payments/epayco-protocol'];
const sandboxRules = {
  patterns: [
    { group: [...REACT, '**/console/**', '**/server/**', '**/generators/**'], message: 'The sandbox must not import the server, the console or React.' },
    { regex: `/engine/(?!(${ENGINE_PROTOCOL_CODECS.join('|')})\\.ts$)`, message: "The sandbox may import only the engine's protocol codecs." },
  ],
};

/** src/core: pure rules, nothing with I/O. */
const coreRules = {
  patterns: [
    { group: ['**/console/**', '**/server/**', '**/engine/**', '**/sandbox/**', '**/generators/**', 'react', 'react-dom', 'swr', 'fs', 'http', 'net', 'child_process', ...SERVER_PACKAGES], message: 'src/core holds pure rules: no I/O, no React, no server.' },
  ],
};

/** src/generated: src/core and itself (a relative import that leaves the folder goes only to ../core). */
const LEAVES_GENERATED = '^\\.\\./(?!core/)';
const generatedRules = {
  patterns: [{ regex: LEAVES_GENERATED, message: 'Generated code imports only src/core and itself.' }],
};
/** The same boundary for `import()`, which no-restricted-imports does not see (esquery regexes take no slash). */
const generatedDynamicImports = {
  selector: `ImportExpression > Literal[value=/${LEAVES_GENERATED.replaceAll('/', '\\x2F')}/]`,
  message: 'Generated code imports only src/core and itself.',
};

/** The same boundary for the server's `import()`: a path into an engine room that is not the room's index.ts. */
const serverDynamicImports = {
  selector: `ImportExpression > Literal[value=/(^|\\x2F)engine\\x2F[^\\x2F]+\\x2F(?!index\\.ts$)/]`,
  message: ENGINE_ROOM_MESSAGE,
};

/** generators/: nothing under src/ (it writes src/generated, it never reads the product). */
const generatorRules = {
  patterns: [{ group: ['**/src/**', '../src', '../../src'], message: 'The generator imports nothing under src/.' }],
};

/**
 * A channel type is its folder (src/engine/channels/<type>/definition.ts declares its
 * capabilities); the rest of the product asks capabilitiesOf(platform) what a type can do, so
 * comparing a value with a platform name is refused outside the channel folders. Not here:
 * src/generated (the enum itself), src/sandbox (the stand-ins speak one provider's protocol, where
 * 'whatsapp' is a wire value, e.g. Graph's messaging_product), and otp-service.ts, whose 'sms' is
 * the one-time code's delivery method (sms or email), not a channel type.
 */
const PLATFORM_NAME = '/^(sms|rcs|whatsapp|fbMessenger|messenger)$/';
const PLATFORM_NAME_MESSAGE = "Read the channel type's capabilities (capabilitiesOf(platform) in src/engine/channels/registry.ts) instead of comparing platform names.";
const platformNameComparisons = [
  { selector: `BinaryExpression[operator=/^[!=]==?$/] > Literal[value=${PLATFORM_NAME}]`, message: PLATFORM_NAME_MESSAGE },
  { selector: `SwitchCase > Literal.test[value=${PLATFORM_NAME}]`, message: PLATFORM_NAME_MESSAGE },
];
const PLATFORM_NAMES_ALLOWED = ['src/engine/channels/**', 'src/generated/**', 'src/sandbox/**', 'src/server/modules/clientAuth/otp-service.ts'];

const recommended = [js.configs.recommended, ...tseslint.configs.recommended];
/** Generated code is linted for its imports only: every other rule is off there. */
const allRulesOff = Object.fromEntries(recommended.flatMap((c) => Object.keys(c.rules ?? {})).map((r) => [r, 'off']));

/** The server's one composition root: it wires real or sandbox implementations of the ports (src/core/ports). */
const SERVER_FILES_WIRING_THE_SANDBOX = ['src/server/composition.ts'];
export default tseslint.config(
  { ignores: ['node_modules', 'dist', '.tools', '.data', 'tests/fixtures/mini-project/expected', 'storybook-static', 'tests/bench/results'] },
  ...recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  { files: ['src/console/**'], rules: { 'no-restricted-imports': ['error', consoleRules] } },
  { files: ['src/console/runtime/**', 'src/console/features/**'], ignores: ['**/*.stories.tsx'], rules: { 'no-restricted-imports': ['error', runtimeRules] } },
  { files: ['src/server/**'], rules: { 'no-restricted-imports': ['error', serverRules(false)] } },
  { files: SERVER_FILES_WIRING_THE_SANDBOX, rules: { 'no-restricted-imports': ['error', serverRules(true)] } },
  { files: ['src/engine/**'], rules: { 'no-restricted-imports': ['error', engineRules] } },
  { files: ['src/sandbox/**'], rules: { 'no-restricted-imports': ['error', sandboxRules] } },
  { files: ['src/core/**'], rules: { 'no-restricted-imports': ['error', coreRules] } },
  { files: ['generators/**'], rules: { 'no-restricted-imports': ['error', generatorRules] } },
  { files: ['src/**/*.ts', 'src/**/*.tsx'], ignores: PLATFORM_NAMES_ALLOWED, rules: { 'no-restricted-syntax': ['error', ...platformNameComparisons] } },
  // The server's import() boundary; a later block replaces a rule's options, so the comparisons above are repeated.
  { files: ['src/server/**'], ignores: PLATFORM_NAMES_ALLOWED, rules: { 'no-restricted-syntax': ['error', ...platformNameComparisons, serverDynamicImports] } },
  { files: PLATFORM_NAMES_ALLOWED.filter((f) => f.startsWith('src/server/')), rules: { 'no-restricted-syntax': ['error', serverDynamicImports] } },
  {
    files: ['src/generated/**'],
    rules: { ...allRulesOff, 'no-restricted-imports': ['error', generatedRules], 'no-restricted-syntax': ['error', generatedDynamicImports] },
  },
);
