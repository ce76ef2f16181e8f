// The sandbox outbox remembers which company each message was sent for: a company user
// reading the outbox sees only their company's mail, never another company's one-time codes.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw('alter table sandbox_outbox add column company_id integer').execute(db);
  await sql.raw('create index sandbox_outbox_company_idx on sandbox_outbox (company_id, id)').execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('alter table sandbox_outbox drop column if exists company_id').execute(db);
}
