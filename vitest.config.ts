// Test projects: unit (pure rules, generator), server (Fastify + database: PGlite by default,
// PostgreSQL when DATABASE_URL is set), console (components and stories in happy-dom),
// e2e (a real browser against `npm start`'s build, two files at a time, each with a product of its own; run by `npm run test:e2e`).
// `*.pg.test.ts` server files need PostgreSQL (several processes on one database; PGlite is one
// process's): they run when DATABASE_URL is set and are not collected on PGlite, rather than skipped.
const POSTGRES_ONLY = process.env.DATABASE_URL ? [] : ['tests/server/**/*.pg.test.ts'];
// `*.redis.test.ts` server files need Redis (the throttle's Redis store): collected with REDIS_URL.
const REDIS_ONLY = process.env.REDIS_URL ? [] : ['tests/server/**/*.redis.test.ts'];
// The server files run in two workers (both cores), each file on its own database (a PGlite copied
// from one migrated snapshot, or a PostgreSQL database copied from a migrated template). The files
// whose outcome depends on having the machine to themselves — crash and kill recovery across child
// processes, SMSC throughput over real sockets, the product's own start, connection deadlines —
// form the server-serial project, one file at a time, after the rest (sequence.groupOrder: a
// project of another worker count runs in a group of its own). A file that only waits for events
// (a conversation's replies, a worker thread's answer) or moves a clock of its own runs with the rest.
const SERVER_SERIAL = [
  'tests/server/*.pg.test.ts', 'tests/server/engine-crash.test.ts', 'tests/server/engine-long-sms-crash.test.ts',
  'tests/server/engine-smpp.test.ts', 'tests/server/engine-in-doubt-expiry.test.ts', 'tests/server/engine-stranded-batch.test.ts',
  'tests/server/demo-and-start.test.ts', 'tests/server/throttle.redis.test.ts', 'tests/server/connection-guard.test.ts',
  'tests/server/conversations.test.ts',
];
import { readdirSync, readFileSync } from 'node:fs';
import { configDefaults, defineConfig } from 'vitest/config';
// The server files share their worker's modules (isolate: false): the server, the engine and the
// compiled schemas are imported once per worker instead of once per file (measured on PostgreSQL: the
// parallel group 320 s → 155 s). Each file still gets its own database and its own server. A file that
// replaces a module (vi.mock) needs modules of its own, or its stand-in would reach the files after
// it: such files are found by their text (a new one is isolated the day it is written).
const SERVER_ISOLATED = readdirSync('tests/server').filter((f) => f.endsWith('.test.ts'))
  .map((f) => `tests/server/${f}`).filter((f) => /\bvi\.(do)?mock\(/.test(readFileSync(f, 'utf8')));
import react from '@vitejs/plugin-react';
import { NODE_FLAGS } from './tests/node-flags.ts';

const server = { environment: 'node' as const, globalSetup: ['tests/server/global-setup.ts'], testTimeout: 30000, hookTimeout: 60000, execArgv: NODE_FLAGS };

export default defineConfig({
  test: {
    maxWorkers: 2,
    projects: [
      { test: { name: 'unit', include: ['tests/unit/**/*.test.ts', 'tests/generators/**/*.test.ts'], environment: 'node', execArgv: NODE_FLAGS } },
      { test: { name: 'server', include: ['tests/server/**/*.test.ts'], exclude: [...configDefaults.exclude, ...POSTGRES_ONLY, ...REDIS_ONLY, ...SERVER_SERIAL, ...SERVER_ISOLATED], ...server, isolate: false } },
      { test: { name: 'server-isolated', include: SERVER_ISOLATED, exclude: [...configDefaults.exclude, ...POSTGRES_ONLY, ...REDIS_ONLY, ...SERVER_SERIAL], ...server } },
      { test: { name: 'server-serial', include: SERVER_SERIAL, exclude: [...configDefaults.exclude, ...POSTGRES_ONLY, ...REDIS_ONLY], ...server, fileParallelism: false, sequence: { groupOrder: 1 } } },
      {
        plugins: [react()],
        test: { name: 'console', include: ['src/console/**/*.test.tsx', 'tests/console/**/*.test.tsx'], environment: 'happy-dom', setupFiles: ['tests/console/setup.ts'], testTimeout: 20000 },
      },
      { test: { name: 'e2e', include: ['tests/e2e/**/*.test.ts'], environment: 'node', execArgv: NODE_FLAGS, globalSetup: ['tests/e2e/global-setup.ts'], testTimeout: 120000, hookTimeout: 240000, sequence: { groupOrder: 2 }, expect: { poll: { timeout: 10000 } } } },
    ],
  },
});
