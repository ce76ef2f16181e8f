// The sandbox outbox's storage: rows of sandbox_outbox (src/sandbox stays free of database code).
import type { Kysely } from 'kysely';
import type { OutboxStore } from '../sandbox/outbox.ts';
import type { Database } from './db/schema.ts';

export function databaseOutboxStore(db: Kysely<Database>): OutboxStore {
  return {
    async append(m) {
      await db.insertInto('sandbox_outbox').values({ company_id: m.companyId ?? null, channel: m.channel, to_address: m.to, subject: m.subject, body: m.body, created_at: m.createdAt }).execute();
    },
  };
}
