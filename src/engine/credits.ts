// Credits (ARCHITECTURE 4): integers (1 credit = 1 COP), moved only through the ledger.
//   reserve   balance → reserved, when a deployment starts or an API request is accepted; a
//             conditional update, so concurrent deployments can never take the balance below
//             zero (and the check constraint would refuse it anyway).
//   consume   reserved → spent, when the provider accepts a message (settled per message, written
//             per claimed batch so 100,000 messages are not 100,000 ledger rows).
//   release   reserved → balance, for messages that will never be sent (blocked, duplicate,
//             refused by the provider, cancelled).
//   take      balance → out, when money comes back out (a reversed purchase): never below zero, so
//             credits already spent cannot be taken and the movement says how many were.
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from './database.ts';

type Db = Kysely<Database> | Transaction<Database>;

export interface CreditBalance { balance: number; reserved: number }

interface Movement {
  companyId: number;
  amount: number;
  deploymentId?: number | null;
  messageCount?: number;
  reference?: string | null;
  createdBy?: number | null;
  now: Date;
}

async function ledger(db: Db, kind: string, m: Movement, after: CreditBalance): Promise<void> {
  await db.insertInto('credit_ledger').values({
    company_id: m.companyId, kind, amount: m.amount, balance_after: after.balance, reserved_after: after.reserved,
    deployment_id: m.deploymentId ?? null, message_count: m.messageCount ?? 0, reference: m.reference ?? null,
    created_by: m.createdBy ?? null, created_at: m.now,
  }).execute();
}

const toBalance = (row: { balance: number | string; reserved: number | string }): CreditBalance =>
  ({ balance: Number(row.balance), reserved: Number(row.reserved) });

export async function balanceOf(db: Db, companyId: number): Promise<CreditBalance> {
  const row = await db.selectFrom('company_credits').select(['balance', 'reserved']).where('company_id', '=', companyId).executeTakeFirst();
  return row ? toBalance(row) : { balance: 0, reserved: 0 };
}

/** Purchases, grants and staff adjustments add to the balance. */
export async function addCredits(db: Db, kind: 'purchase' | 'grant' | 'adjust', m: Movement): Promise<CreditBalance> {
  if (!Number.isInteger(m.amount) || m.amount <= 0) throw new RangeError('credits are added in positive whole amounts');
  const row = await db.insertInto('company_credits')
    .values({ company_id: m.companyId, balance: m.amount, reserved: 0, updated_at: m.now })
    .onConflict((oc) => oc.column('company_id').doUpdateSet({ balance: sql`company_credits.balance + ${m.amount}`, updated_at: m.now }))
    .returning(['balance', 'reserved'])
    .executeTakeFirstOrThrow();
  const after = toBalance(row);
  await ledger(db, kind, m, after);
  return after;
}

/** Holds `amount` for a deployment or request; null when the balance does not cover it (81 / 99986). */
export async function reserve(db: Db, m: Movement): Promise<CreditBalance | null> {
  if (m.amount === 0) return balanceOf(db, m.companyId);
  const row = await db.updateTable('company_credits')
    .set({ balance: sql`balance - ${m.amount}`, reserved: sql`reserved + ${m.amount}`, updated_at: m.now })
    .where('company_id', '=', m.companyId)
    .where('balance', '>=', m.amount)
    .returning(['balance', 'reserved'])
    .executeTakeFirst();
  if (!row) return null;
  const after = toBalance(row);
  await ledger(db, 'reserve', m, after);
  return after;
}

/** Spends reserved credits for messages the provider accepted. */
export async function consume(db: Db, m: Movement): Promise<void> {
  if (m.amount === 0) return;
  const row = await db.updateTable('company_credits')
    .set({ reserved: sql`reserved - ${m.amount}`, updated_at: m.now })
    .where('company_id', '=', m.companyId)
    .returning(['balance', 'reserved'])
    .executeTakeFirstOrThrow();
  await ledger(db, 'consume', m, toBalance(row));
}

/** Gives reserved credits back for messages that will not be sent. */
export async function release(db: Db, m: Movement): Promise<void> {
  if (m.amount === 0) return;
  const row = await db.updateTable('company_credits')
    .set({ reserved: sql`reserved - ${m.amount}`, balance: sql`balance + ${m.amount}`, updated_at: m.now })
    .where('company_id', '=', m.companyId)
    .returning(['balance', 'reserved'])
    .executeTakeFirstOrThrow();
  await ledger(db, 'release', m, toBalance(row));
}

/**
 * Takes up to `amount` credits out of the balance (a reversal): what the balance holds, never
 * more (the balance cannot go below zero; reserved credits belong to running deployments).
 * Answers how many were taken. Call it inside a transaction: the balance's row is locked first.
 */
export async function takeCredits(db: Db, kind: 'reversal', m: Movement): Promise<number> {
  if (!Number.isInteger(m.amount) || m.amount <= 0) throw new RangeError('credits are taken in positive whole amounts');
  const current = await db.selectFrom('company_credits').select('balance').where('company_id', '=', m.companyId).forUpdate().executeTakeFirst();
  const taken = Math.min(Number(current?.balance ?? 0), m.amount);
  if (taken === 0) return 0;
  const row = await db.updateTable('company_credits')
    .set({ balance: sql`balance - ${taken}`, updated_at: m.now })
    .where('company_id', '=', m.companyId)
    .returning(['balance', 'reserved'])
    .executeTakeFirstOrThrow();
  await ledger(db, kind, { ...m, amount: taken }, toBalance(row));
  return taken;
}
