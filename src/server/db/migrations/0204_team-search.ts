// Team search: trigram indexes so the team list's `q` (a case-insensitive substring
// of name, e-mail, document id or phone: ILIKE '%q%') finds its rows without reading the whole
// users table. GIN, not GiST: at 100,000 members a GIN lookup took ~1 ms where GiST took 12–45 ms.
// fastupdate is off: with it on, new rows wait in the index's pending list until a vacuum, which
// PGlite never runs on its own, and the planner (rightly) prices a long pending list as a scan.
//
// The indexes need the pg_trgm extension. PGlite loads it (database.ts); on PostgreSQL, creating
// it needs a superuser or (PostgreSQL 13+, pg_trgm is a trusted extension) CREATE on the
// database. When it can't be created, this migration does nothing and search keeps working by
// scanning, exactly as before, only slower. To add the indexes later, run the statements of
// `indexStatements` (docs/identity-and-administration.md, "Company administration") as a user that may.
import { sql, type Kysely } from 'kysely';

export const SEARCHED_COLUMNS = ['full_name', 'email', 'document_id', 'phone'] as const;

const IDENT = /^[a-z_][a-z0-9_$]*$/;

/** The statements that index the searched columns, given the schema pg_trgm lives in. */
export function indexStatements(trgmSchema: string): string[] {
  if (!IDENT.test(trgmSchema)) throw new Error(`unexpected schema name ${trgmSchema}`);
  return SEARCHED_COLUMNS.map((c) => `create index if not exists users_${c}_trgm_idx on users using gin (${c} "${trgmSchema}".gin_trgm_ops) with (fastupdate = off)`);
}

async function trgmSchema(db: Kysely<unknown>): Promise<string | undefined> {
  const found = await sql<{ schema: string }>`
    select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'`.execute(db);
  return found.rows[0]?.schema;
}

/**
 * The schema of pg_trgm, creating the extension if it is missing and allowed; undefined when it
 * can't be had. It goes to `public` when that works (a per-test or per-tenant schema is dropped
 * with everything in it, the extension included), else to the current schema. Migrations run in
 * one transaction, so each attempt sits in a savepoint: a refusal must not abort the others.
 */
async function ensureTrgm(db: Kysely<unknown>): Promise<string | undefined> {
  const existing = await trgmSchema(db);
  if (existing) return existing;
  for (const target of [sql`with schema public`, sql``]) {
    await sql`savepoint trgm`.execute(db);
    try {
      await sql`create extension if not exists pg_trgm ${target}`.execute(db);
      await sql`release savepoint trgm`.execute(db);
      return await trgmSchema(db);
    } catch {
      await sql`rollback to savepoint trgm`.execute(db);
      await sql`release savepoint trgm`.execute(db);
      // Someone else may have created it meanwhile (a concurrent migration of another schema).
      const meanwhile = await trgmSchema(db);
      if (meanwhile) return meanwhile;
    }
  }
  return undefined;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  const schema = await ensureTrgm(db);
  if (!schema) {
    console.warn('migration 0204: pg_trgm is not available to this database user; team search (q) scans the users table instead of using trigram indexes');
    return;
  }
  for (const statement of indexStatements(schema)) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const c of SEARCHED_COLUMNS) await sql.raw(`drop index if exists users_${c}_trgm_idx`).execute(db);
}
