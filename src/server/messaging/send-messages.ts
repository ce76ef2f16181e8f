// The one step between a request to send and the engine's enqueue, shared by campaign launches,
// event fires and POST /v1/messages. It reads the company's send window and duplicate window
// first (the send window reads the database, and PGlite has one connection, which the transaction
// would hold), opens the transaction, and hands the caller an enqueue completed with both: the
// caller adds what it writes beside the messages in the same transaction (a deployment, an
// event's counters, an Idempotency-Key). The engine then decides every message (block list 5,
// duplicates 93, credits 81 or 99986, the send window).
import type { Transaction } from 'kysely';
import type { Database } from '../../engine/database.ts';
import { enqueueMessages, heldUntil, type EnqueueItem, type EnqueueRequest, type EnqueueResult } from '../../engine/lifecycle/index.ts';
import type { MessagingHooks, ServerDeps } from '../context.ts';
import { duplicateWindowHours } from './duplicate-window.ts';

/** What a send asks, without what sendMessages reads for it (the windows) and what the caller adds inside the transaction. */
export type SendRequest = Omit<EnqueueRequest, 'duplicateWindowHours' | 'heldUntil' | 'items' | 'deploymentId'>;

/** Enqueues these messages (of this deployment, for a campaign) in the send's transaction. */
export type Enqueue = (items: readonly EnqueueItem[], deploymentId?: number | null) => Promise<EnqueueResult>;

export async function sendMessages<T>(deps: Pick<ServerDeps, 'db'> & { messaging: Pick<MessagingHooks, 'sendWindow'> }, request: SendRequest, work: (trx: Transaction<Database>, enqueue: Enqueue) => Promise<T>): Promise<T> {
  const held = await heldUntil(deps.messaging.sendWindow, request.companyId, request.purpose, request.at ?? request.now, request.source);
  const duplicateHours = await duplicateWindowHours(deps.db, request.companyId);
  return deps.db.transaction().execute((trx) => work(trx, (items, deploymentId = null) =>
    enqueueMessages(trx, { ...request, items, deploymentId, duplicateWindowHours: duplicateHours, heldUntil: held })));
}
