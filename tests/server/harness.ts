// Test harness: a server on a fresh database per test file. PGlite in memory by default; with
// DATABASE_URL, PostgreSQL in a copy of the run's migrated template database (test-databases.ts).
// Requests go through app.inject, addressed by operation id so
// tests/server/coverage.test.ts can prove every declared operation is exercised.
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { decodeSession } from '../../src/core/session-codec.ts';
import type { OperationId } from '../../src/generated/operations.gen.ts';
import { serverOperations } from '../../src/generated/server-operations.gen.ts';
import type { SessionUser } from '../../src/generated/types.gen.ts';
import type { CaptchaVerifier } from '../../src/core/ports/captcha.ts';
import { buildServer } from '../../src/server/app.ts';
import type { ClosablePaymentGateway } from '../../src/server/composition.ts';
import { createDatabase, type DatabaseHandle, type DatabaseOptions } from '../../src/server/db/database.ts';
import { demoEmail, seedDemo } from '../../src/server/db/demo-seed.ts';
import { prepareDatabase } from '../../src/server/db/prepare.ts';
import type { Database } from '../../src/engine/database.ts';
import type { HandlerMap } from '../../src/server/http/handler.ts';
import type { OutboundPolicy } from '../../src/server/security/outbound-guard.ts';
import { hashPassword } from '../../src/server/security/passwords.ts';
import type { ThrottleSettings } from '../../src/server/security/throttle-settings.ts';
import { folderStorage, type FileStorage } from '../../src/server/storage/file-storage.ts';
import { snapshotBlob } from './pglite-snapshot.ts';
import { copyTemplateDatabase, newTestSchema, TEMPLATE_ENV } from './test-databases.ts';

/** The demo users' password in tests (the product never has a fixed one: see main.ts). */
export const TEST_PASSWORD = 'Prueba#2025x';

export interface OpArgs {
  params?: Record<string, string | number>;
  query?: Record<string, string | number>;
  body?: unknown;
  /** Raw payload (string or Buffer) instead of JSON `body`. */
  payload?: string | Buffer;
  token?: string;
  headers?: Record<string, string>;
  /** The client's address (default 127.0.0.1, the machine itself). */
  remoteAddress?: string;
}

export interface Clock { now: Date; advance(ms: number): void }

export interface Harness {
  app: FastifyInstance;
  db: Kysely<Database>;
  clock: Clock;
  /** The server's file storage: a folder of its own, removed at close. */
  storage: FileStorage;
  op(id: OperationId, args?: OpArgs): Promise<LightMyRequestResponse>;
  signin(email: string, password?: string): Promise<{ token: string; session: SessionUser }>;
  /** Sign in one of the demo users by role or state name (superadmin, analista, pending, …). */
  as(name: string): Promise<{ token: string; session: SessionUser }>;
  count(table: keyof Database): Promise<number>;
  /** Row counts of STATE_TABLES plus a digest of the users' and codes' mutable columns. */
  snapshot(): Promise<Record<string, number | string>>;
  outbox(to: string): Promise<{ channel: string; to: string; subject: string; body: string }[]>;
  /** The newest 6-digit code sent to `to`. */
  lastCode(to: string): Promise<string>;
  /** A second company with one active user per given role (for company-scoping tests). */
  addCompany(name: string, users: { email: string; roles: string[]; state?: string }[]): Promise<{ companyId: number; userIds: number[] }>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  demo?: boolean; // seed the demo company (default true)
  sandbox?: boolean; // default true
  captcha?: CaptchaVerifier;
  handlers?: HandlerMap;
  consoleRoot?: string;
  /** Abuse throttling's limits; default: limits no test meets, counted as the product would (memory on PGlite, the database on PostgreSQL). */
  throttle?: Partial<ThrottleSettings>;
  /** The payment gateway (default: the sandbox's ePayco stand-in, started on first use). */
  payments?: ClosablePaymentGateway;
  /** Where connections made on a company's behalf may go (default: public addresses only, no sandbox targets). */
  outbound?: OutboundPolicy;
  /** Without DATABASE_URL: PGlite on disk under this folder, as `npm start` keeps it, instead of in memory (the benchmarks). */
  pgliteDir?: string;
}

const NO_LIMIT = { perIp: 1_000_000, perAccount: 1_000_000, windowMs: 60_000 };

/** Limits no test meets unless it asks for its own, with the store `npm start` would pick for this database. */
export function testThrottle(kind: DatabaseHandle['kind'], overrides: Partial<ThrottleSettings> = {}): ThrottleSettings {
  return {
    global: NO_LIMIT,
    redirect: NO_LIMIT,
    classes: { signin: NO_LIMIT, register: NO_LIMIT, recovery: NO_LIMIT, otp: NO_LIMIT },
    store: kind === 'postgres' ? 'database' : 'memory',
    ...overrides,
  };
}

const byId = new Map<string, (typeof serverOperations)[number]>(serverOperations.map((o) => [o.id, o]));

/** Rows of these tables are compared before/after refused requests ("no state change"). */
export const STATE_TABLES = ['companies', 'users', 'user_roles', 'password_history', 'tokens', 'otps', 'areas', 'notifications', 'files', 'sandbox_outbox'] as const;

/**
 * The database options of a test's own database: PGlite in memory, or with DATABASE_URL a copy of
 * the run's template database (a fresh schema without one), and the function that drops it afterwards.
 */
export async function testDatabase(pgliteDir?: string): Promise<{ options: DatabaseOptions; drop: () => Promise<void> }> {
  const url = process.env.DATABASE_URL;
  if (!url && pgliteDir) return { options: { kind: 'pglite', dataDir: pgliteDir }, drop: async () => rm(pgliteDir, { recursive: true, force: true }) };
  // The run's migrated snapshot when the global setup made one (pglite-snapshot.ts), else an empty initdb.
  if (!url) return { options: { kind: 'memory', loadDataDir: snapshotBlob() }, drop: async () => {} };
  const template = process.env[TEMPLATE_ENV];
  if (template) {
    const copy = await copyTemplateDatabase(url, template);
    return { options: { kind: 'postgres', url: copy.url, poolSize: 4 }, drop: copy.drop };
  }
  // Dropped once this process is gone (test-databases.ts), not now: another file may be migrating.
  return { options: { kind: 'postgres', url, schema: await newTestSchema(url), poolSize: 4 }, drop: async () => {} };
}

async function openDatabase(pgliteDir?: string): Promise<{ handle: DatabaseHandle; drop: () => Promise<void> }> {
  const { options, drop } = await testDatabase(pgliteDir);
  return { handle: createDatabase(options), drop };
}

export async function createHarness(options: HarnessOptions = {}): Promise<Harness> {
  const { handle, drop } = await openDatabase(options.pgliteDir);
  await prepareDatabase(handle);
  const clock: Clock = { now: new Date(), advance(ms) { this.now = new Date(this.now.getTime() + ms); } };
  if (options.demo ?? true) await seedDemo(handle.db, TEST_PASSWORD, clock.now);
  const files = mkdtempSync(join(tmpdir(), 'colibri-files-'));
  const storage = folderStorage(files);
  const app = await buildServer({
    db: handle.db,
    storage,
    sandbox: options.sandbox ?? true,
    now: () => clock.now,
    captcha: options.captcha,
    handlers: options.handlers,
    consoleRoot: options.consoleRoot,
    throttle: testThrottle(handle.kind, options.throttle),
    payments: options.payments,
    outbound: options.outbound,
  });
  // Compiles every route's schemas now, inside the caller's beforeAll and its hook timeout, rather than in its first test.
  await app.ready();
  const db = handle.db;

  const op: Harness['op'] = async (id, args = {}) => {
    const spec = byId.get(id);
    if (!spec) throw new Error(`unknown operation ${id}`);
    let url = spec.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(args.params?.[name] ?? `{${name}}`)));
    if (args.query) url += `?${new URLSearchParams(Object.entries(args.query).map(([k, v]) => [k, String(v)]))}`;
    const headers: Record<string, string> = { ...(args.token ? { 'x-auth-token': args.token } : {}), ...args.headers };
    const payload = args.payload ?? (args.body === undefined ? undefined : JSON.stringify(args.body));
    if (args.body !== undefined && !headers['content-type']) headers['content-type'] = 'application/json';
    return app.inject({ method: spec.method, url, headers, payload, ...(args.remoteAddress ? { remoteAddress: args.remoteAddress } : {}) });
  };

  const signin: Harness['signin'] = async (email, password = TEST_PASSWORD) => {
    const res = await op('clientAuth.signin', { body: { email, password } });
    if (res.statusCode !== 200) throw new Error(`signin ${email}: ${res.statusCode} ${res.body}`);
    const session = decodeSession(res.json().clientToken)!;
    return { token: session.token, session };
  };

  const count = async (table: keyof Database) => {
    const row = await db.selectFrom(table).select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
    return Number(row.n);
  };

  // What the sandbox providers sent to `to`, newest first, read from its table: the codes a test
  // needs, without a session of its own (tests/server/sandbox-door.test.ts tests the door).
  const outbox: Harness['outbox'] = async (to) => {
    const rows = await db.selectFrom('sandbox_outbox').select(['channel', 'to_address', 'subject', 'body'])
      .where(sql<string>`lower(to_address)`, '=', to.trim().toLowerCase()).orderBy('id', 'desc').limit(200).execute();
    return rows.map((r) => ({ channel: r.channel, to: r.to_address, subject: r.subject, body: r.body }));
  };

  return {
    app,
    db,
    clock,
    storage,
    op,
    signin,
    as: (name) => signin(demoEmail(name)),
    count,
    async snapshot() {
      const result: Record<string, number | string> = {};
      for (const t of STATE_TABLES) result[t] = await count(t);
      const users = await db.selectFrom('users').select(['id', 'state', 'failed_logins', 'locked_until', 'password_hash', 'full_name', 'phone', 'address', 'profile_pic_file']).orderBy('id').execute();
      result.users = createHash('sha256').update(JSON.stringify(users)).digest('hex');
      const otps = await db.selectFrom('otps').select(['id', 'attempts', 'consumed_at']).orderBy('id').execute();
      result.otps = createHash('sha256').update(JSON.stringify(otps)).digest('hex');
      const tokens = await db.selectFrom('tokens').select(['id', 'revoked_at']).orderBy('id').execute();
      result.tokens_revoked = createHash('sha256').update(JSON.stringify(tokens)).digest('hex');
      return result;
    },
    outbox,
    async lastCode(to) {
      const [newest] = await outbox(to);
      const code = newest && /\b(\d{6})\b/.exec(newest.body)?.[1];
      if (!code) throw new Error(`no code in the outbox for ${to}`);
      return code;
    },
    async addCompany(name, users) {
      const hash = await hashPassword(TEST_PASSWORD);
      return db.transaction().execute(async (trx) => {
        const company = await trx.insertInto('companies').values({ name, nit: '800999888-1', state: 'active', plan_type: 'subscription', picture_file: null }).returning('id').executeTakeFirstOrThrow();
        const roles = await trx.selectFrom('roles').select(['id', 'name']).where('company_id', 'is', null).execute();
        const userIds: number[] = [];
        for (const u of users) {
          const row = await trx.insertInto('users').values({
            company_id: company.id, parent_id: null, full_name: u.email.split('@')[0], email: u.email, phone: null, document_type: null,
            document_id: null, address: null, state: u.state ?? 'active', otp_method: 'email', password_hash: hash,
            password_changed_at: clock.now, locked_until: null, profile_pic_file: null,
          }).returning('id').executeTakeFirstOrThrow();
          if (u.roles.length) await trx.insertInto('user_roles').values(u.roles.map((r) => ({ user_id: row.id, role_id: roles.find((x) => x.name === r)!.id }))).execute();
          userIds.push(row.id);
        }
        return { companyId: company.id, userIds };
      });
    },
    async close() {
      await app.close();
      await handle.close();
      await drop();
      await rm(files, { recursive: true, force: true });
    },
  };
}

/** A multipart/form-data body with one file part. */
export function multipart(field: string, filename: string, contentType: string, bytes: Buffer): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----colibri${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${contentType}\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { payload: Buffer.concat([head, bytes, tail]), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** A real 1x1 PNG (valid signature, IHDR, IDAT, IEND). */
export const PNG_1x1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
