// A scheduled report may be any report screen's table: the schedule keeps the screen and the
// operation body its filters made (the run puts the covered days in); the file a run makes is
// claimed by one process (`claimed_at`) while it asks the screen's operation and writes the answer.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw('alter table report_schedules add column screen text').execute(db);
  await sql.raw('alter table report_schedules add column payload jsonb').execute(db);
  await sql.raw('alter table report_files add column claimed_at timestamptz').execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('alter table report_files drop column claimed_at').execute(db);
  await sql.raw('alter table report_schedules drop column payload').execute(db);
  await sql.raw('alter table report_schedules drop column screen').execute(db);
}
