// Turning requests into message rows (ARCHITECTURE 5): a message is a row before it is anything
// else. Everything that can be decided before sending is decided here, set-based, in the same
// transaction that inserts the rows: the refusal rules (refusal-rules.ts: the block list 5, the
// duplicate rule 93, …), the credits (reserved now; 81 when they do not cover the request, 82 / 83 for a subscription plan) and
// the send window (commercial messages outside it wait for the next allowed slot: held, never
// dropped).
import { sql, type RawBuilder, type Transaction } from 'kysely';
import type { ChannelPlatform, TemplateRef } from '../channel-adapter.ts';
import { perMessagePrice, type MessagePrice } from '../channels/definition.ts';
import { channelDefinition } from '../channels/registry.ts';
import { reserve, shortfallStatus } from '../credits.ts';
import { STATUS } from './message-states.ts';
import { refusalRules } from './refusal-rules.ts';
import { fraudStatuses } from './fraud-rule.ts';
import type { Database } from '../database.ts';
import type { MessagePurpose as Purpose } from '../../generated/enums.gen.ts';

export type { Purpose };

export interface EnqueueItem {
  to: string;
  body?: string;
  template?: TemplateRef;
  clientRef?: string | null;
  /** Refused before anything else (an unusable number): stored as rejected with status 94. */
  invalid?: boolean;
}

/** Where a message comes from: a deployment, an API or event call, a campaign's test send, or a conversation's turn (a chatbot flow). */
export type MessageSource = 'campaign' | 'api' | 'test' | 'flow';

/**
 * Whether the send window may hold a message: commercial ones only, and never a campaign's test,
 * which the person who asked for it is waiting for on their own phone (Brevo's and Infobip's
 * "send a test" go at once too). One rule for the enqueue and the dispatcher.
 */
export function heldBySendWindow(purpose: string, source: string): boolean {
  return purpose === 'commercial' && source !== 'test';
}

/** When a commercial message may leave: null = now, else the next allowed instant. */
export type SendWindow = (companyId: number, at: Date) => Promise<Date | null> | Date | null;

export interface EnqueueRequest {
  companyId: number;
  channel: { id: number; platform: ChannelPlatform };
  purpose: Purpose;
  /** test: a campaign's test send, never held by the send window (see heldBySendWindow). */
  source: MessageSource;
  deploymentId?: number | null;
  /** The event that fires these messages (POST /v1/events/{key}/fire). */
  eventId?: number | null;
  /** The campaign a test send tries out (source 'test'): its messages belong to no deployment. */
  testCampaignId?: number | null;
  apiCredentialId?: string | null;
  /**
   * A resend of this deployment's messages (engine/campaigns/resend.ts): its own messages that did
   * not arrive are what is sent again, so they do not make the resend a duplicate (93).
   */
  resendOf?: number | null;
  /** The team member sending: their area (users.area_id, now) goes on each message for the reports by area. */
  createdBy?: number | null;
  items: readonly EnqueueItem[];
  /** The company's duplicate window (hours); 0 turns the rule off. */
  duplicateWindowHours: number;
  /** When commercial messages may leave (see heldUntil()): asked before the transaction opens,
   *  because the send window reads the database and PGlite has one connection. */
  heldUntil: Date | null;
  now: Date;
  /** When the messages are planned (a scheduled deployment); default now. */
  at?: Date;
  /** Deployments refuse to start without credits (99986); API requests get 81 per message; a
   *  campaign's preview (a launch rolled back) only reports it (shortOfCredits). */
  onInsufficientCredits: 'throw' | 'reject' | 'report';
  /**
   * When the credits are reserved: now (default), or when the dispatcher claims the messages
   * (dispatch.ts claimQueued, for a whole batch at once) — a conversation's replies, so that one
   * company's concurrent turns do not wait for each other on its balance row. A reply its credits
   * do not cover is then refused at the claim (81, or the plan's 82 / 83).
   */
  creditsAt?: 'enqueue' | 'claim';
}

export interface EnqueueResult {
  ids: number[];
  queued: number;
  held: number;
  heldUntil: Date | null;
  /** Rows each refusal rule refused (refusal-rules.ts, by name) and those the credits did not cover (81). */
  rejected: { blacklisted: number; duplicate: number; insufficientCredits: number; [rule: string]: number };
  reservedCredits: number;
  /** Credits the rows still going cost (what a launch reserves); 0 when they are paid at the claim. */
  neededCredits: number;
  /** 'report' only: the balance does not cover neededCredits (nothing was refused for it). */
  shortOfCredits: boolean;
}

/** The instant commercial messages planned at `at` may leave (null = then), for EnqueueRequest.heldUntil. */
export async function heldUntil(sendWindow: SendWindow, companyId: number, purpose: Purpose, at: Date, source: MessageSource = 'campaign'): Promise<Date | null> {
  return heldBySendWindow(purpose, source) ? sendWindow(companyId, at) : null;
}

export class InsufficientCreditsError extends Error {
  constructor(readonly needed: number) {
    super(`not enough credits: ${needed} needed`);
  }
}

/** Credits one message costs: its channel type's pricing (engine/channels/<platform>/definition.ts). */
export function messageCost(platform: ChannelPlatform, body: string | undefined): MessagePrice {
  return channelDefinition(platform)?.price?.(body) ?? perMessagePrice();
}

const BATCH = 5000;

export async function enqueueMessages(trx: Transaction<Database>, req: EnqueueRequest): Promise<EnqueueResult> {
  const { now } = req;
  const planned = req.at && req.at > now ? req.at : now;
  const heldUntil = heldBySendWindow(req.purpose, req.source) ? req.heldUntil : null;
  const notBefore = heldUntil ?? planned;
  const ids: number[] = [];
  // Possible fraud (7) is decided from the text's links before the insert (fraud-rule.ts).
  const fraud = await fraudStatuses(trx, req.companyId, req.items);
  for (let start = 0; start < req.items.length; start += BATCH) {
    const slice = req.items.slice(start, start + BATCH);
    // The status a row is refused with at its insert: 94 for an unusable number, 7 for possible fraud.
    const refusedWith = slice.map((item, k) => (item.invalid ? STATUS.invalid : (fraud?.[start + k] ?? null)));
    const priced = slice.map((item, k) => (refusedWith[k] !== null ? { parts: 0, encoding: null, cost: 0 } : messageCost(req.channel.platform, item.body)));
    const rows = await sql<{ id: number | string }>`
      insert into messages (company_id, area_id, deployment_id, channel_id, source, purpose, to_number, body, template, parts, encoding, cost,
                            state, status_code, not_before, held_reason, client_ref, api_credential_id, event_id, test_campaign_id, unpaid, created_at, updated_at)
      select ${req.companyId}, (select u.area_id from users u where u.id = ${req.createdBy ?? null}::int and u.company_id = ${req.companyId}), ${req.deploymentId ?? null}::bigint, ${req.channel.id}, ${req.source}, ${req.purpose}, t.to_number, t.body,
             t.template::jsonb, t.parts, t.encoding, t.cost, case when t.refused is not null then 'rejected' else 'queued' end,
             coalesce(t.refused, ${STATUS.scheduled}::int), ${notBefore}::timestamptz,
             ${heldUntil ? 'sendWindow' : null}::text, t.client_ref, ${req.apiCredentialId ?? null}::text, ${req.eventId ?? null}::int, ${req.testCampaignId ?? null}::int, ${req.creditsAt === 'claim'}::boolean, ${now}::timestamptz, ${now}::timestamptz
      from unnest(${slice.map((i) => i.to)}::text[], ${slice.map((i) => i.body ?? null)}::text[],
                  ${slice.map((i) => (i.template ? JSON.stringify(i.template) : null))}::text[], ${priced.map((p) => p.parts)}::int[],
                  ${priced.map((p) => p.encoding)}::text[], ${priced.map((p) => p.cost)}::int[], ${slice.map((i) => i.clientRef ?? null)}::text[],
                  ${refusedWith}::int[])
           with ordinality as t(to_number, body, template, parts, encoding, cost, client_ref, refused, n)
      order by t.n
      returning id`.execute(trx);
    for (const r of rows.rows) ids.push(Number(r.id));
  }
  if (ids.length === 0) return { ids, queued: 0, held: 0, heldUntil, rejected: { blacklisted: 0, duplicate: 0, insufficientCredits: 0 }, reservedCredits: 0, neededCredits: 0, shortOfCredits: false };
  // Exactly these rows: identities of concurrent requests can interleave with ours.
  const idArray = sql`${ids}::bigint[]`;
  const mine = sql`m.id = any(${idArray}) and m.state = 'queued'`;

  // The refusal rules (block list 5, duplicates 93, …), in order, each over the rows still queued.
  const rejected: Record<string, number> = {};
  const possibleFraud = fraud?.filter((f) => f !== null).length ?? 0;
  for (const rule of refusalRules) rejected[rule.name] = await rule.apply(trx, { req, now, mine });

  // Paid at the claim: what is still going is what no rule refused, and nothing is reserved now.
  const paidLater = req.creditsAt === 'claim';
  const due = paidLater
    ? { n: ids.length - req.items.filter((i) => i.invalid === true).length - possibleFraud - Object.values(rejected).reduce((a, n) => a + n, 0), cost: 0 }
    : (await sql<{ n: number | string; cost: number | string | null }>`select count(*) as n, sum(cost) as cost from messages m where ${mine}`.execute(trx)).rows[0];
  const queued = Number(due.n);
  const cost = Number(due.cost ?? 0);
  let insufficientCredits = 0;
  let reservedCredits = 0;
  let shortOfCredits = false;
  if (cost > 0) {
    const held = await reserve(trx, { companyId: req.companyId, amount: cost, platform: req.channel.platform, deploymentId: req.deploymentId, messageCount: queued, createdBy: req.createdBy, now });
    if (held) reservedCredits = cost;
    else if (req.onInsufficientCredits === 'throw') throw new InsufficientCreditsError(cost);
    else if (req.onInsufficientCredits === 'report') shortOfCredits = true;
    else {
      // 81, or the plan's 82 / 83 for a subscription (credits.ts shortfallStatus).
      const status = await shortfallStatus(trx, req.companyId, req.channel.platform, now);
      await sql`update messages m set state = 'rejected', status_code = ${status}, done_at = ${now}, updated_at = ${now} where ${mine}`.execute(trx);
      insufficientCredits = queued;
    }
  }
  await sql`
    insert into message_events (message_id, at, state, status_code, detail)
    select id, ${now}, state, status_code, held_reason from messages where id = any(${idArray})`.execute(trx);
  const stillQueued = queued - insufficientCredits;
  return {
    ids,
    queued: heldUntil ? 0 : stillQueued,
    held: heldUntil ? stillQueued : 0,
    heldUntil,
    rejected: { blacklisted: rejected.blacklisted ?? 0, duplicate: rejected.duplicate ?? 0, ...rejected, ...(possibleFraud ? { possibleFraud } : {}), insufficientCredits },
    reservedCredits,
    neededCredits: cost,
    shortOfCredits,
  };
}

/** Each `id` is claimed only after its `after` left the queue (a conversation's replies keep their order; dispatch.ts claimQueued). */
export async function sendAfter(trx: Transaction<Database>, pairs: readonly { id: number; after: number }[]): Promise<void> {
  await sendAfterSql(pairs)?.execute(trx);
}

/** sendAfter's UPDATE (null when there is nothing to chain), for a caller that runs it with other writes (one-statement.ts). */
export function sendAfterSql(pairs: readonly { id: number; after: number }[]): RawBuilder<unknown> | null {
  if (!pairs.length) return null;
  return sql`update messages m set after_message_id = v.after
    from unnest(${pairs.map((p) => p.id)}::bigint[], ${pairs.map((p) => p.after)}::bigint[]) as v(id, after) where m.id = v.id`;
}
