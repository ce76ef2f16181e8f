// A flow's step counts (statistics) are added by every turn of every conversation of
// the flow, in the turn's transaction: one row per step and event made every concurrent turn of a
// popular flow wait for the others' commits (the conversations bench saw 90 % of its turns' time
// waiting on that row lock). The counts now spread over 16 rows per step and event, chosen by the
// conversation (turns.ts COUNT_SHARDS); readers add the shards together.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of [
    'alter table flow_step_counts add column shard smallint not null default 0',
    'alter table flow_step_counts drop constraint flow_step_counts_pkey',
    'alter table flow_step_counts add primary key (flow_id, version, step_id, event, shard)',
  ]) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw(`create table flow_step_counts_single as
    select flow_id, version, step_id, event, sum(count)::bigint as count from flow_step_counts group by flow_id, version, step_id, event`).execute(db);
  await sql.raw('delete from flow_step_counts').execute(db);
  await sql.raw('alter table flow_step_counts drop constraint flow_step_counts_pkey').execute(db);
  await sql.raw('alter table flow_step_counts drop column shard').execute(db);
  await sql.raw('insert into flow_step_counts select * from flow_step_counts_single').execute(db);
  await sql.raw('drop table flow_step_counts_single').execute(db);
  await sql.raw('alter table flow_step_counts add primary key (flow_id, version, step_id, event)').execute(db);
}
