// Test projects: unit (pure rules, generator), server (Fastify + database: PGlite by default,
// PostgreSQL when DATABASE_URL is set), console (components and stories in happy-dom),
// e2e (a real browser against `npm start`'s build; run by `npm run test:e2e`).
// `*.pg.test.ts` server files need PostgreSQL (several processes on one database; PGlite is one
// process's): they run when DATABASE_URL is set and are not collected on PGlite, rather than skipped.
const POSTGRES_ONLY = process.env.DATABASE_URL ? [] : ['tests/server/**/*.pg.test.ts'];
// `*.redis.test.ts` server files need Redis (the throttle's Redis store): collected with REDIS_URL.
const REDIS_ONLY = process.env.REDIS_URL ? [] : ['tests/server/**/*.redis.test.ts'];
import { configDefaults, defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineConfig({
  test: {
    projects: [
      { test: { name: 'unit', include: ['tests/unit/**/*.test.ts', 'tests/generators/**/*.test.ts'], environment: 'node' } },
      { test: { name: 'server', include: ['tests/server/**/*.test.ts'], exclude: [...configDefaults.exclude, ...POSTGRES_ONLY, ...REDIS_ONLY], environment: 'node', globalSetup: ['tests/server/global-setup.ts'], testTimeout: 30000, hookTimeout: 60000, fileParallelism: false } },
      {
        plugins: [react()],
        test: { name: 'console', include: ['src/console/**/*.test.tsx', 'tests/console/**/*.test.tsx'], environment: 'happy-dom', setupFiles: ['tests/console/setup.ts'], testTimeout: 20000 },
      },
      { test: { name: 'e2e', include: ['tests/e2e/**/*.test.ts'], environment: 'node', testTimeout: 120000, hookTimeout: 240000, fileParallelism: false, expect: { poll: { timeout: 10000 } } } },
    ],
  },
});
