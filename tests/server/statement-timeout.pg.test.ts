// A request whose statement runs past the database's statement timeout (DATABASE_STATEMENT_TIMEOUT_MS)
// answers 504 with 99993 (timeout) in the usual error shape, not a 500, and the server goes on
// serving. PostgreSQL only: the timeout is PostgreSQL's statement_timeout, set on every connection
// of the process's pool; here a request waits behind another connection's lock until it runs out.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { buildServer } from '../../src/server/app.ts';
import { createDatabase, databaseFromEnv, type DatabaseHandle } from '../../src/server/db/database.ts';
import { prepareDatabase } from '../../src/server/db/prepare.ts';
import { seedDemo } from '../../src/server/db/demo-seed.ts';
import { testDatabase, testThrottle, TEST_PASSWORD } from './harness.ts';

let limited: DatabaseHandle;
let free: DatabaseHandle;
let app: FastifyInstance;
let drop: () => Promise<void>;

beforeAll(async () => {
  const made = await testDatabase();
  drop = made.drop;
  if (made.options.kind !== 'postgres') throw new Error('a PostgreSQL test');
  free = createDatabase(made.options);
  await prepareDatabase(free);
  await seedDemo(free.db, TEST_PASSWORD, new Date());
  limited = createDatabase({ ...made.options, statementTimeoutMs: 300 });
  app = await buildServer({ db: limited.db, sandbox: true, throttle: testThrottle('postgres') });
}, 180_000);
afterAll(async () => { await app?.close(); await limited?.close(); await free?.close(); await drop?.(); });

describe('the statement timeout', () => {
  it('a request stuck behind a lock answers 504 with 99993, and the next one is served', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => { release = resolve; });
    let locked!: () => void;
    const lockTaken = new Promise<void>((resolve) => { locked = resolve; });
    // Another connection holds the countries table for the length of the request.
    const holder = free.db.transaction().execute(async (trx) => {
      await sql`lock table countries in access exclusive mode`.execute(trx);
      locked();
      await held;
    });
    await lockTaken;
    try {
      const res = await app.inject({ method: 'GET', url: '/v1/countries' });
      expect(res.statusCode).toBe(504);
      expect(res.json()).toEqual({ code: '99993', message: expect.any(String) });
    } finally {
      release();
      await holder;
    }
    expect((await app.inject({ method: 'GET', url: '/v1/countries' })).statusCode).toBe(200);
  });

  it('is read from DATABASE_STATEMENT_TIMEOUT_MS, and a value that is not a whole number of milliseconds is refused at start', () => {
    expect(databaseFromEnv({ DATABASE_URL: 'postgres://x@h/db', DATABASE_STATEMENT_TIMEOUT_MS: '30000' })).toMatchObject({ statementTimeoutMs: 30000 });
    expect(databaseFromEnv({ DATABASE_URL: 'postgres://x@h/db' })).not.toHaveProperty('statementTimeoutMs');
    expect(() => databaseFromEnv({ DATABASE_URL: 'postgres://x@h/db', DATABASE_STATEMENT_TIMEOUT_MS: '30s' })).toThrow(/DATABASE_STATEMENT_TIMEOUT_MS/);
  });
});
