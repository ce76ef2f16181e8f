// Credits (ARCHITECTURE 4): integers (1 credit = 1 COP), moved only through the ledger.
//   reserve   balance → reserved, when a deployment starts or an API request is accepted, or
//             when the dispatcher claims a conversation's replies (lifecycle/dispatch.ts
//             payClaimed, a batch at once); a conditional update, so concurrent deployments can
//             never take the balance below zero (and the check constraint would refuse it anyway).
//   consume   reserved → spent, when the provider accepts a message (settled per message, written
//             per claimed batch so 100,000 messages are not 100,000 ledger rows).
//   release   reserved → balance, for messages that will never be sent (blocked, duplicate,
//             refused by the provider, cancelled).
//   take      balance → out, when money comes back out (a reversed purchase, expired promotional
//             credits): never below zero, so credits already spent cannot be taken and the
//             movement says how many were.
// Promotional credits (promo_credits) are in the balance too, bound to one channel type
// until their date: a reservation for a channel may not take another channel's unspent promotional
// credits; consumption on a channel spends its promotional credits first (the oldest to expire
// first); at expiry what is left leaves the balance (expirePromotions).
// Subscription plans (companies.plan_type 'subscription') do not buy credits: the
// provider's staff grant each period's quota as promotional credits of the plan's channels, valid
// until the period ends. When they do not cover a message, its status says why in the plan's
// words (shortfallStatus): 82 sent-message limit while a period runs, 83 subscription expired once
// none does; a pilot company's message says 81 insufficient credits.
import { sql, type Kysely, type Transaction } from 'kysely';
import { smsStateByName, type ChannelPlatform } from '../generated/enums.gen.ts';
import type { Database } from './database.ts';

type Db = Kysely<Database> | Transaction<Database>;

export interface CreditBalance { balance: number; reserved: number }

interface Movement {
  companyId: number;
  amount: number;
  /** reserve: the channel type the credits are for (its promotional credits may be used); absent, none may. */
  platform?: string;
  /** consume: the channel the messages went out on (its type's promotional credits are spent first). */
  channelId?: number;
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
  // Other channels' unspent promotional credits are not this reservation's to take.
  const notOurs = sql<number>`(select coalesce(sum(remaining), 0) from promo_credits
    where company_id = ${m.companyId} and remaining > 0 and expires_at > ${m.now}${m.platform ? sql` and platform <> ${m.platform}` : sql``})`;
  const row = await db.updateTable('company_credits')
    .set({ balance: sql`balance - ${m.amount}`, reserved: sql`reserved + ${m.amount}`, updated_at: m.now })
    .where('company_id', '=', m.companyId)
    .where(sql`balance - ${notOurs}`, '>=', m.amount)
    .returning(['balance', 'reserved'])
    .executeTakeFirst();
  if (!row) return null;
  const after = toBalance(row);
  await ledger(db, 'reserve', m, after);
  return after;
}

/** Spends reserved credits for messages the provider accepted. */
/** The status of a message its company's credits do not cover (see the top of this file). */
export async function shortfallStatus(db: Db, companyId: number, platform: ChannelPlatform, now: Date): Promise<number> {
  const row = await db.selectFrom('companies').select(['plan_type']).where('id', '=', companyId)
    .select((eb) => eb.exists(eb.selectFrom('promo_credits').select('id').where('promo_credits.company_id', '=', companyId).where('promo_credits.platform', '=', platform).where('promo_credits.expires_at', '>', now)).as('period'))
    .executeTakeFirst();
  if (row?.plan_type !== 'subscription') return smsStateByName.insufficientCredits;
  return row.period ? smsStateByName.sentMessageLimit : smsStateByName.subscriptionExpired;
}

export async function consume(db: Db, m: Movement): Promise<void> {
  if (m.amount === 0) return;
  if (m.channelId !== undefined) await spendPromotional(db, m.companyId, m.channelId, m.amount, m.now);
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
export async function takeCredits(db: Db, kind: 'reversal' | 'expire', m: Movement): Promise<number> {
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

/** The channel type's unspent promotional credits, oldest to expire first, take what was spent on it. */
async function spendPromotional(db: Db, companyId: number, channelId: number, amount: number, now: Date): Promise<void> {
  const open = await sql<{ id: number | string; remaining: number | string }>`
    select p.id, p.remaining from promo_credits p join channels c on c.id = ${channelId} and c.platform = p.platform
    where p.company_id = ${companyId} and p.remaining > 0 and p.expires_at > ${now}
    order by p.expires_at, p.id for update of p`.execute(db);
  let left = amount;
  for (const row of open.rows) {
    if (left <= 0) break;
    const spent = Math.min(left, Number(row.remaining));
    await db.updateTable('promo_credits').set({ remaining: sql`remaining - ${spent}` }).where('id', '=', row.id as number).execute();
    left -= spent;
  }
}

/** Staff grant a company promotional credits for one channel type until `expiresAt`: they join the balance now. */
export async function grantPromotional(db: Db, m: Movement & { platform: string; expiresAt: Date }): Promise<CreditBalance> {
  const after = await addCredits(db, 'grant', { ...m, reference: m.reference ?? `promotional ${m.platform} until ${m.expiresAt.toISOString()}` });
  await db.insertInto('promo_credits').values({
    company_id: m.companyId, platform: m.platform as never, amount: m.amount, remaining: m.amount, expires_at: m.expiresAt, granted_by: m.createdBy ?? null, created_at: m.now,
  }).execute();
  return after;
}

/**
 * Promotional credits whose date passed leave the balance (a ledger movement, kind expire) for what
 * is left of them, each in its own transaction with the company's balance locked. Answers how many
 * grants expired. Runs every 30 s beside the scheduler; once per grant (the row is locked and zeroed).
 */
export async function expirePromotions(db: Kysely<Database>, now: Date, limit = 100): Promise<number> {
  const due = await db.selectFrom('promo_credits').select('id').where('remaining', '>', 0).where('expires_at', '<=', now).orderBy('expires_at').limit(limit).execute();
  let expired = 0;
  for (const { id } of due) {
    expired += await db.transaction().execute(async (trx) => {
      const grant = await trx.selectFrom('promo_credits').select(['company_id', 'remaining', 'platform']).where('id', '=', id).where('remaining', '>', 0).forUpdate().executeTakeFirst();
      if (!grant) return 0;
      const left = Number(grant.remaining);
      await trx.updateTable('promo_credits').set({ remaining: 0, expired_at: now }).where('id', '=', id).execute();
      await takeCredits(trx, 'expire', { companyId: grant.company_id, amount: left, reference: `promotional ${grant.platform} expired`, now });
      return 1;
    });
  }
  return expired;
}
