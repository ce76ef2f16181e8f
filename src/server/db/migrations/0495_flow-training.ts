// A flow's training file: example phrases and the response each one means, which
// widen a step's matching ("me gustaría pagar la factura" → "Pagar"). Looked up by the answer's
// normal form (core/flows/matching.ts normalizeAnswer) when a person's answer matches nothing as
// written. Each file read is a numbered upload (stored in short transactions); the flow points at
// the one it answers with, so a new file replaces the old at once and a failed one changes nothing.
// A flow without a file (training_upload null) costs its conversations no lookup.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of [
    `create table flow_training_phrases (
       flow_id integer not null references flows(id) on delete cascade,
       company_id integer not null references companies(id),
       upload integer not null,
       phrase_key text not null,
       phrase text not null,
       meaning text not null,
       row integer not null,
       primary key (flow_id, upload, phrase_key, meaning))`,
    'create index flow_training_phrases_row_idx on flow_training_phrases (flow_id, upload, row)',
    // training_uploads numbers each file read; training_upload is the one the flow answers with.
    'alter table flows add column training_uploads integer not null default 0',
    'alter table flows add column training_upload integer',
    'alter table flows add column training_phrases integer not null default 0',
    'alter table flows add column training_file text',
    'alter table flows add column training_at timestamptz',
  ]) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const statement of [
    'alter table flows drop column training_at',
    'alter table flows drop column training_file',
    'alter table flows drop column training_phrases',
    'alter table flows drop column training_upload',
    'alter table flows drop column training_uploads',
    'drop table flow_training_phrases',
  ]) await sql.raw(statement).execute(db);
}
