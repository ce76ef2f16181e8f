// The one step between a request to send and the engine's enqueue, shared by campaign launches,
// event fires and POST /v1/messages. It reads the company's send window and duplicate window
// first (the send window reads the database, and PGlite has one connection, which the transaction
// would hold), opens the transaction, and hands the caller an enqueue completed with both: the
// caller adds what it writes beside the messages in the same transaction (a deployment, an
// event's counters, an Idempotency-Key). The engine then decides every message (block list 5,
// duplicates 93, credits 81 or 99986, the send window).
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../database.ts';
import { enqueueMessages, heldUntil, type EnqueueItem, type EnqueueRequest, type EnqueueResult, type SendWindow } from '../lifecycle/index.ts';

/** What a send asks, without what sendMessages reads for it (the windows) and what the caller adds inside the transaction. */
export type SendRequest = Omit<EnqueueRequest, 'duplicateWindowHours' | 'heldUntil' | 'items' | 'deploymentId'>;

/** Enqueues these messages (of this deployment, for a campaign) in the send's transaction. */
export type Enqueue = (items: readonly EnqueueItem[], deploymentId?: number | null) => Promise<EnqueueResult>;

export async function sendMessages<T>(deps: { db: Kysely<Database>; messaging: { sendWindow: SendWindow } }, request: SendRequest, work: (trx: Transaction<Database>, enqueue: Enqueue) => Promise<T>): Promise<T> {
  const held = await heldUntil(deps.messaging.sendWindow, request.companyId, request.purpose, request.at ?? request.now, request.source);
  const duplicateHours = await duplicateWindowHours(deps.db, request.companyId);
  return deps.db.transaction().execute((trx) => work(trx, (items, deploymentId = null) =>
    enqueueMessages(trx, { ...request, items, deploymentId, duplicateWindowHours: duplicateHours, heldUntil: held })));
}

/** The duplicate rule's window (93) when a company has not set its own: the migration's column default. */
export const DEFAULT_DUPLICATE_HOURS = 24;

/** The duplicate rule's window (93) of a company: its messaging settings, else the default. One reader for the launch, the sending API and the settings screen. */
export async function duplicateWindowHours(db: Kysely<Database>, companyId: number): Promise<number> {
  const row = await db.selectFrom('messaging_settings').select('duplicate_window_hours').where('company_id', '=', companyId).executeTakeFirst();
  return row?.duplicate_window_hours ?? DEFAULT_DUPLICATE_HOURS;
}
