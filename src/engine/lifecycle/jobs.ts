// Every state change of a job (src/engine/jobs): created pending beside the work that asks for it,
// claimed by one process at a time (a lease, taken with FOR UPDATE SKIP LOCKED so several workers
// on one PostgreSQL never run the same job; PGlite is one process), advanced step by step in the
// step's own transaction, finished or failed with its reason.
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../database.ts';
import type { Job, JobKind, JobPayloads } from '../jobs/kinds.ts';

export async function createJob<K extends JobKind>(trx: Transaction<Database>, kind: K, payload: JobPayloads[K], now: Date): Promise<number> {
  const row = await trx.insertInto('jobs').values({ kind, payload: JSON.stringify(payload), cursor: 0, created_at: now, updated_at: now })
    .returning('id').executeTakeFirstOrThrow();
  return Number(row.id);
}

/**
 * How many jobs of `kind` the company has waiting (pending), counted after taking the company's
 * lock for that kind in the caller's transaction: two requests racing for the last place are
 * counted one after the other, so a cap read from this holds exactly.
 */
export async function waitingJobs(trx: Transaction<Database>, kind: JobKind, companyId: number): Promise<number> {
  await sql`select pg_advisory_xact_lock(hashtext(${`jobs:${kind}`}), ${companyId})`.execute(trx);
  const row = await sql<{ n: string | number }>`select count(*) as n from jobs
    where state = 'pending' and kind = ${kind} and (payload ->> 'companyId')::int = ${companyId}`.execute(trx);
  return Number(row.rows[0].n);
}

type JobRow = { id: number | string; kind: string; payload: unknown; cursor: number | string; done: number };
const toJob = (r: JobRow): Job => ({ id: Number(r.id), kind: r.kind as JobKind, payload: r.payload as Job['payload'], cursor: Number(r.cursor), done: r.done });

/** Takes the oldest pending job nobody holds (or whose holder's lease ran out: it died) for `leaseMs`. */
export async function claimJob(db: Kysely<Database>, workerId: string, leaseMs: number, now: Date): Promise<Job | null> {
  const until = new Date(now.getTime() + leaseMs);
  const row = await sql<JobRow>`
    update jobs set claimed_by = ${workerId}, lease_until = ${until}, updated_at = ${now}
    where id = (select id from jobs where state = 'pending' and (lease_until is null or lease_until < ${now} or claimed_by = ${workerId})
                  and (not_before is null or not_before <= ${now})
                order by id limit 1 for update skip locked)
    returning id, kind, payload, cursor, done`.execute(db);
  return row.rows[0] ? toJob(row.rows[0]) : null;
}

/** The job as it stands, locked for this step's transaction (a step reads its cursor here, never from memory). */
export async function lockJob(trx: Transaction<Database>, id: number): Promise<Job | null> {
  const row = await sql<JobRow & { state: string }>`select id, kind, payload, cursor, done, state from jobs where id = ${id} for update`.execute(trx);
  const r = row.rows[0];
  return r && r.state === 'pending' ? toJob(r) : null;
}

/** A step is done: the cursor moves in the transaction of the step's own writes, and the lease is renewed (null: nobody holds it yet). */
export async function advanceJob(trx: Transaction<Database>, id: number, cursor: number, added: number, now: Date, leaseMs: number | null): Promise<void> {
  const until = leaseMs === null ? null : new Date(now.getTime() + leaseMs);
  await sql`update jobs set cursor = ${cursor}, done = done + ${added}, lease_until = ${until}, updated_at = ${now}
            where id = ${id}`.execute(trx);
}

/** A step that must wait (a retry's back-off): the cursor moves, the job is let go until `notBefore`. */
export async function postponeJob(trx: Transaction<Database> | Kysely<Database>, id: number, cursor: number, notBefore: Date, now: Date): Promise<void> {
  await sql`update jobs set cursor = ${cursor}, not_before = ${notBefore}, claimed_by = null, lease_until = null, updated_at = ${now}
            where id = ${id}`.execute(trx);
}

export async function finishJob(trx: Transaction<Database> | Kysely<Database>, id: number, now: Date, error: string | null = null): Promise<void> {
  await sql`update jobs set state = ${error ? 'failed' : 'done'}, error = ${error}, claimed_by = null, lease_until = null, updated_at = ${now}
            where id = ${id}`.execute(trx);
}

/** A process that stops lets go of its jobs: another (or its next start) takes them up at the cursor. */
export async function releaseJobs(db: Kysely<Database>, workerId: string, now: Date): Promise<void> {
  await sql`update jobs set claimed_by = null, lease_until = null, updated_at = ${now} where claimed_by = ${workerId} and state = 'pending'`.execute(db);
}
