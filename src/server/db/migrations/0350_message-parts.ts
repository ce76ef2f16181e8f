// The parts of a long SMS. The SMSC gives every submit_sm its own message_id and sends a
// delivery receipt per part; a message is delivered when all its parts are, failed as soon as one
// part fails. The part ids are stored with the submit answer, and each part's final status when
// its receipt comes, so the whole message's fate is decided by the database, not by a worker's
// memory: a worker that dies between two parts' receipts loses nothing, and its successor decides
// the message from the receipts that are left. A message sent before its worker died unanswered
// (in doubt) gets its part rows from the receipts that name it by destination and reference.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw(`create table message_parts (
     channel_id integer not null,
     provider_part_id text not null,
     message_id bigint not null references messages (id) on delete cascade,
     delivery_status text,
     error_code text,
     at timestamptz,
     primary key (channel_id, provider_part_id))`).execute(db);
  await sql.raw('create index message_parts_message_idx on message_parts (message_id)').execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('drop table if exists message_parts').execute(db);
}
