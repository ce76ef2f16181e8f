// An API key presented with its right secret from an address the company did not authorise (the
// spec's SMS status 96, invalid origin IP): when and from where it last happened, so the
// credentials list shows it and the company's notification e-mail is told once an hour at most.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw('alter table api_credentials add column foreign_origin_at timestamptz, add column foreign_origin_ip text').execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('alter table api_credentials drop column foreign_origin_at, drop column foreign_origin_ip').execute(db);
}
