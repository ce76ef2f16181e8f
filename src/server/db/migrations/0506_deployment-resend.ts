// A run may be a resend of another run's messages that did not arrive: it names that run, so each
// number is resent from it once (engine/campaigns/resend.ts).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw('alter table deployments add column resend_of bigint references deployments(id) on delete set null').execute(db);
  await sql.raw('create index deployments_resend_of_idx on deployments (resend_of) where resend_of is not null').execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('alter table deployments drop column resend_of').execute(db);
}
