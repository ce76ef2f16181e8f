// The home's figures: GET /v1/messages/lastDays counts the caller's company's messages
// of the last 7 Bogotá days per day and outcome (sent, delivered, failed) with the delivery rate,
// every day present; another company's messages never count; a role without the home (component
// 10) is refused. GET /v1/account/payments/summary answers the company's real credits (it once
// answered 0 while the company held 1,000,000).
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { addDays, formatYmd, parseYmd } from '../../src/core/bogota-time.ts';
import { calendarDate } from '../../src/core/date-range.ts';
import { reserve } from '../../src/engine/credits.ts';
import { fileHarness, signedIn } from './file-harness.ts';
import { demoCompanyId, otherCompany, userWithGrants } from './messaging-fixtures.ts';

const h = fileHarness();
const tokens = signedIn(h, 'manager');
let companyId: number;
let channelId: number;
let today: string;
const DAY = 86_400_000;

beforeAll(async () => {
  companyId = await demoCompanyId(h);
  const channels = (await h.op('channels.list', { token: tokens.manager, query: { pageSize: 200 } })).json();
  channelId = channels.items.find((c: { platform: string; enabled: boolean }) => c.platform === 'sms' && c.enabled).id;
  today = calendarDate(h.clock.now, 'America/Bogota');
});

let seq = 0;
/** One message of the company by direct insert (the engine's own columns). */
async function message(o: { company?: number; state: string; sent?: boolean; createdAt: Date }) {
  const to = `+57301${String(++seq).padStart(7, '0')}`;
  await sql`insert into messages (company_id, deployment_id, channel_id, source, purpose, to_number, body, cost, state, status_code, not_before, sent_at, created_at, updated_at)
    values (${o.company ?? companyId}, null, ${channelId}, 'api', 'transactional', ${to}, 'Hola', 1, ${o.state}, 3, ${o.createdAt}, ${o.sent ? o.createdAt : null}, ${o.createdAt}, ${o.createdAt})`.execute(h.db);
}

const lastDays = async (token = tokens.manager) => {
  const res = await h.op('messages.lastDays', { token });
  expect(res.statusCode).toBe(200);
  return res.json() as { days: number; perDay: { day: string; outcome: string; messages: number }[]; sent: number; delivered: number; failed: number; deliveryRate: number | null };
};
const count = (r: Awaited<ReturnType<typeof lastDays>>, day: string, outcome: string) => r.perDay.find((p) => p.day === day && p.outcome === outcome)?.messages;

describe('the last 7 days on the home', () => {
  it('answers every day of the week with sent, delivered and failed, and the delivery rate', async () => {
    const before = await lastDays();
    const now = h.clock.now;
    // Today: 3 accepted (2 delivered, 1 read), 1 failed after acceptance, 1 queued, 1 refused before sending.
    await message({ state: 'delivered', sent: true, createdAt: now });
    await message({ state: 'read', sent: true, createdAt: now });
    await message({ state: 'failed', sent: true, createdAt: now });
    await message({ state: 'queued', createdAt: now });
    await message({ state: 'rejected', createdAt: now });
    // Two days ago: 1 delivered; eight days ago: outside the week.
    await message({ state: 'delivered', sent: true, createdAt: new Date(now.getTime() - 2 * DAY) });
    await message({ state: 'delivered', sent: true, createdAt: new Date(now.getTime() - 8 * DAY) });

    const after = await lastDays();
    expect(after.days).toBe(7);
    const week = Array.from({ length: 7 }, (_, i) => formatYmd(addDays(parseYmd(today), i - 6)));
    expect([...new Set(after.perDay.map((p) => p.day))]).toEqual(week);
    expect(after.perDay).toHaveLength(21);
    expect(new Set(after.perDay.map((p) => p.outcome))).toEqual(new Set(['sent', 'delivered', 'failed']));
    expect(after.sent - before.sent).toBe(4);
    expect(after.delivered - before.delivered).toBe(3);
    expect(after.failed - before.failed).toBe(1);
    expect(count(after, today, 'sent')! - count(before, today, 'sent')!).toBe(3);
    expect(count(after, today, 'delivered')! - count(before, today, 'delivered')!).toBe(2);
    expect(after.deliveryRate).toBeCloseTo(after.delivered / after.sent);
  });

  it("counts only the caller's company, and is null-rated with nothing sent", async () => {
    const other = await otherCompany(h);
    const mine = await lastDays();
    expect(await lastDays(other.token)).toMatchObject({ sent: 0, delivered: 0, failed: 0, deliveryRate: null });
    await message({ company: other.companyId, state: 'delivered', sent: true, createdAt: h.clock.now });
    expect(await lastDays()).toEqual(mine);
    expect(await lastDays(other.token)).toMatchObject({ sent: 1, delivered: 1, deliveryRate: 1 });
  });

  it('refuses a role without the home (component 10): 99982', async () => {
    const token = await userWithGrants(h, [{ id: 2001, actions: ['view'] }]);
    const res = await h.op('messages.lastDays', { token });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('99982');
  });

  it('refuses a range beyond 31 days: 99931', async () => {
    expect((await h.op('messages.lastDays', { token: tokens.manager, query: { days: 40 } })).json().code).toBe('99931');
  });
});

describe('the credits on the home', () => {
  it("answers the company's balance and what running deployments hold, from the ledger", async () => {
    const first = (await h.op('account.paymentsSummary', { token: tokens.manager })).json();
    expect(first).toMatchObject({ balance: 1_000_000, reserved: 0, purchased: 1_000_000, spent: 0 });
    await reserve(h.db, { companyId, amount: 2_500, now: h.clock.now });
    const held = (await h.op('account.paymentsSummary', { token: tokens.manager })).json();
    expect(held).toMatchObject({ balance: 997_500, reserved: 2_500, purchased: 1_000_000, movements: first.movements + 1 });
    // Another company's credits are its own.
    const other = await otherCompany(h);
    expect((await h.op('account.paymentsSummary', { token: other.token })).json()).toEqual({ balance: 0, reserved: 0, purchased: 0, spent: 0, purchasedThisMonth: 0, spentThisMonth: 0, promotional: 0, movements: 0 });
  });
});
