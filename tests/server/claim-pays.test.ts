// A conversation's replies are paid for when the dispatcher claims them (migration 0496), on PGlite
// or PostgreSQL (DATABASE_URL): nothing is reserved when they are enqueued; the claim reserves the
// batch's credits in its own transaction, the covered ones in order when the balance falls short,
// and refuses the rest — 81 for a pilot company, 82 for a subscription plan whose period runs.
import { describe, expect, it } from 'vitest';
import { grantPromotional } from '../../src/engine/credits.ts';
import { claimQueued } from '../../src/engine/lifecycle/dispatch.ts';
import { enqueueMessages } from '../../src/engine/lifecycle/enqueue.ts';
import { fileHarness } from './file-harness.ts';

const h = fileHarness();

async function demoSms() {
  const company = await h.db.selectFrom('companies').select('id').orderBy('id').executeTakeFirstOrThrow();
  const channel = await h.db.selectFrom('channels').select(['id']).where('company_id', '=', company.id).where('platform', '=', 'sms').orderBy('id').executeTakeFirstOrThrow();
  return { companyId: company.id, channelId: channel.id };
}

const credits = async (companyId: number) => {
  const row = await h.db.selectFrom('company_credits').select(['balance', 'reserved']).where('company_id', '=', companyId).executeTakeFirstOrThrow();
  return { balance: Number(row.balance), reserved: Number(row.reserved) };
};

/** Replies as a turn enqueues them: paid at the claim. */
async function replies(companyId: number, channelId: number, texts: string[]): Promise<number[]> {
  return h.db.transaction().execute(async (trx) => (await enqueueMessages(trx, {
    companyId, channel: { id: channelId, platform: 'sms' }, purpose: 'transactional', source: 'flow',
    items: texts.map((body, i) => ({ to: `57300111${String(i).padStart(4, '0')}`, body })), duplicateWindowHours: 0, heldUntil: null, now: h.clock.now,
    onInsufficientCredits: 'reject', creditsAt: 'claim',
  })).ids);
}

describe('replies paid at the claim', () => {
  it('reserves nothing when enqueued; the claim pays for what the balance covers, in order, and refuses the rest with 81', async () => {
    const { companyId, channelId } = await demoSms();
    const kept = await credits(companyId);
    const ids = await replies(companyId, channelId, ['uno', 'dos', 'tres']);
    expect(await credits(companyId)).toEqual(kept);
    const queued = await h.db.selectFrom('messages').select(['id', 'cost', 'unpaid', 'state']).where('id', 'in', ids).orderBy('id').execute();
    expect(queued.map((m) => [m.state, m.unpaid])).toEqual(Array(3).fill(['queued', true]));
    // The balance covers two of the three.
    const cost = queued[0].cost;
    await h.db.updateTable('company_credits').set({ balance: 2 * cost }).where('company_id', '=', companyId).execute();
    try {
      const claim = await claimQueued(h.db, 'w1', 10, h.clock.now);
      expect(claim.rows.map((r) => Number(r.id))).toEqual(ids.slice(0, 2));
      expect(claim.refused).toBe(1);
      expect(await credits(companyId)).toMatchObject({ balance: 0, reserved: kept.reserved + 2 * cost });
      const after = await h.db.selectFrom('messages').select(['state', 'status_code', 'unpaid', 'worker_id']).where('id', 'in', ids).orderBy('id').execute();
      expect(after).toEqual([
        { state: 'sending', status_code: after[0].status_code, unpaid: false, worker_id: 'w1' },
        { state: 'sending', status_code: after[1].status_code, unpaid: false, worker_id: 'w1' },
        { state: 'rejected', status_code: 81, unpaid: false, worker_id: null },
      ]);
      const events = await h.db.selectFrom('message_events').select(['state', 'status_code']).where('message_id', '=', ids[2]).orderBy('id').execute();
      expect(events.at(-1)).toEqual({ state: 'rejected', status_code: 81 });
    } finally {
      await h.db.updateTable('messages').set({ state: 'cancelled', worker_id: null }).where('id', 'in', ids.slice(0, 2)).execute();
      await h.db.updateTable('company_credits').set({ balance: kept.balance, reserved: kept.reserved }).where('company_id', '=', companyId).execute();
    }
  });

  it("a subscription plan's replies its quota does not cover are refused 82 (sent-message limit) while its period runs", async () => {
    const { companyId, channelId } = await demoSms();
    const kept = await credits(companyId);
    const plan = await h.db.selectFrom('companies').select('plan_type').where('id', '=', companyId).executeTakeFirstOrThrow();
    await h.db.updateTable('companies').set({ plan_type: 'subscription' }).where('id', '=', companyId).execute();
    try {
      // This period's quota, already spent.
      await grantPromotional(h.db, { companyId, amount: 1, platform: 'sms', expiresAt: new Date(h.clock.now.getTime() + 86_400_000), now: h.clock.now });
      await h.db.updateTable('promo_credits').set({ remaining: 0 }).where('company_id', '=', companyId).execute();
      await h.db.updateTable('company_credits').set({ balance: 0 }).where('company_id', '=', companyId).execute();
      const [id] = await replies(companyId, channelId, ['cuatro']);
      const claim = await claimQueued(h.db, 'w1', 10, h.clock.now);
      expect([claim.rows.length, claim.refused]).toEqual([0, 1]);
      expect(await h.db.selectFrom('messages').select(['state', 'status_code']).where('id', '=', id).executeTakeFirstOrThrow()).toEqual({ state: 'rejected', status_code: 82 });
    } finally {
      await h.db.updateTable('companies').set({ plan_type: plan.plan_type }).where('id', '=', companyId).execute();
      await h.db.deleteFrom('promo_credits').where('company_id', '=', companyId).execute();
      await h.db.updateTable('company_credits').set({ balance: kept.balance, reserved: kept.reserved }).where('company_id', '=', companyId).execute();
    }
  });
});
