// A conversation's replies in the order the flow sent them: a message may name the one it
// must follow (`after_message_id`); the dispatcher claims it only once that one has left the queue
// (its submit was answered), so a turn's "Gracias" never overtakes its menu on an SMSC that
// answers submits out of order. Nullable, no default: adding it rewrites nothing.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw('alter table messages add column after_message_id bigint').execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('alter table messages drop column if exists after_message_id').execute(db);
}
