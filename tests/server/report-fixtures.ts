// Traffic for the report tests: accounts (copies of a company's channel under new names) and
// messages inserted as the lifecycle leaves them, on Bogotá days and hours, with the delivery time,
// serving network and purpose a report reads.
import { instantOf } from '../../src/core/bogota-time.ts';
import type { Harness } from './harness.ts';

let channelSeq = 0;
/** A copy of one of the company's channels under a new name: an account with no traffic yet. */
export async function newChannel(h: Harness, company: number, name: string, platform?: string): Promise<number> {
  const source = await h.db.selectFrom('channels').selectAll().where('company_id', '=', company).orderBy('id').executeTakeFirst()
    ?? await h.db.selectFrom('channels').selectAll().orderBy('id').executeTakeFirstOrThrow();
  const { id: _id, ...read } = source as Record<string, unknown>;
  // JSON columns go back as JSON text (PostgreSQL's driver would send a JS array as an SQL array).
  const row = Object.fromEntries(Object.entries(read).map(([k, v]) => [k, v && typeof v === 'object' && !(v instanceof Date) && !Buffer.isBuffer(v) ? JSON.stringify(v) : v]));
  const sender = `89${String(++channelSeq).padStart(4, '0')}`;
  const inserted = await h.db.insertInto('channels').values({ ...row, company_id: company, name, sender, ...(platform ? { platform } : {}) } as never).returning('id').executeTakeFirstOrThrow();
  return inserted.id;
}

export interface Seed { account: number; day: string; hour: number; state: string; status: number; to: string; network?: string; cost?: number; parts?: number; latencyMs?: number; purpose?: 'otp' | 'transactional' | 'commercial'; deploymentId?: number; errorCode?: string }

export async function insertMessages(h: Harness, company: number, seeds: Seed[]) {
  await h.db.insertInto('messages').values(seeds.map((s) => {
    const [year, month, day] = s.day.split('-').map(Number);
    const created = instantOf({ year, month, day, hour: s.hour, minute: 10, second: 0 });
    const sent = new Date(created.getTime() + 1000);
    return {
      company_id: company, channel_id: s.account, source: 'api', purpose: s.purpose ?? 'transactional', to_number: s.to, body: 'hola', parts: s.parts ?? 1, cost: s.cost ?? 1,
      state: s.state, status_code: s.status, not_before: created, created_at: created, updated_at: created, billed: s.state !== 'rejected',
      sent_at: s.state === 'rejected' ? null : sent, done_at: s.latencyMs === undefined ? null : new Date(sent.getTime() + s.latencyMs), network: s.network ?? null,
      deployment_id: s.deploymentId ?? null, error_code: s.errorCode ?? null,
    };
  }) as never).execute();
}


/** One run (deployment) on `account` started at `startedAt`, of a new campaign (by name) or of one already made (by id). */
export async function newRun(h: Harness, company: number, account: number, campaign: string | number, startedAt: Date): Promise<{ campaignId: number; deploymentId: number }> {
  const c = typeof campaign === 'number' ? { id: campaign } : await h.db.insertInto('campaigns').values({ company_id: company, name: campaign, kind: 'open', purpose: 'transactional', channel_id: account, content: 'Hola', created_at: startedAt, updated_at: startedAt } as never).returning('id').executeTakeFirstOrThrow();
  const d = await h.db.insertInto('deployments').values({ company_id: company, campaign_id: c.id, channel_id: account, state: 'completed', purpose: 'transactional', started_at: startedAt, total: 0, created_at: startedAt, updated_at: startedAt } as never).returning('id').executeTakeFirstOrThrow();
  return { campaignId: c.id, deploymentId: Number(d.id) };
}
