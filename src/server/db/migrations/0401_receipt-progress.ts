// How far a channel's receipts have come (found by the crash test under load): an
// in-doubt message waited a fixed grace for the receipt that would name it, but a restarted worker
// reads the receipts an SMSC kept behind everything queued before them, and when that backlog took
// longer than the grace, messages that had reached the SMSC went a second time (2,557 of 100,000).
// An in-doubt row now also waits until the channel's receipts have passed it: a receipt stored
// for a message claimed after it (receipt_progress.through), or nothing sent before it still
// waiting for its receipt (the claimed_at index below answers that with one probe per channel)
// while the channel's receipts have been quiet for a moment (receipt_progress.received_at).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw(`create table receipt_progress (
    channel_id integer primary key references channels(id) on delete cascade,
    through timestamptz,
    received_at timestamptz not null
  )`).execute(db);
  await sql.raw('drop index if exists messages_awaiting_receipt_idx').execute(db);
  await sql.raw(`create index messages_awaiting_receipt_idx on messages (channel_id, claimed_at) where state = 'sent'`).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('drop table if exists receipt_progress').execute(db);
  await sql.raw('drop index if exists messages_awaiting_receipt_idx').execute(db);
  await sql.raw(`create index messages_awaiting_receipt_idx on messages (channel_id) where state = 'sent'`).execute(db);
}
