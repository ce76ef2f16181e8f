// Which channels have messages waiting for a receipt ('sent'): a worker that starts connects
// those channels at once (src/engine/dispatcher.ts attachAwaiting), because an SMSC keeps a
// system_id's receipts while none of its sessions is bound and hands them over only at the next
// bind. The probe is one index lookup per channel; without this index it would read every row a
// channel ever sent. ('in_doubt' rows have their own index since 0300.)
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw(`create index messages_awaiting_receipt_idx on messages (channel_id) where state = 'sent'`).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('drop index if exists messages_awaiting_receipt_idx').execute(db);
}
