// A report file is written in the language of whoever asked for it (the console's Accept-Language);
// a scheduled report's files and e-mails in the language of whoever saved the schedule. Rows from
// before were Spanish, the default.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw("alter table report_files add column language text not null default 'es'").execute(db);
  await sql.raw("alter table report_schedules add column language text not null default 'es'").execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('alter table report_schedules drop column language').execute(db);
  await sql.raw('alter table report_files drop column language').execute(db);
}
