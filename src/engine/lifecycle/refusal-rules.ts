// The rules that refuse a message before it is sent, in the order they apply: each is
// one set-based UPDATE over the rows enqueueMessages just inserted (still `queued`), marking the
// ones it refuses `rejected` with its status code. enqueueMessages runs them for a launch, an
// event fire and POST /v1/messages alike, and a campaign's preview runs the same launch in a
// transaction it rolls back, so what the summary predicts is what the launch does. A new rule
// (e.g. one that needs an open conversation window) is one more entry here.
import { sql, type RawBuilder, type Transaction } from 'kysely';
import { entryBlocksSql, sqlInstant } from '../../core/block-list.ts';
import type { Database } from '../database.ts';
import type { EnqueueRequest } from './enqueue.ts';
import { STATUS } from './message-states.ts';
import { EMPTY_PARAMETER_CODE } from '../channels/whatsapp/template-match.ts';

export interface RefusalContext {
  req: EnqueueRequest;
  now: Date;
  /** `m.id = any(…) and m.state = 'queued'`: exactly the rows of this request still going. */
  mine: RawBuilder<unknown>;
}

export interface RefusalRule {
  /** How the enqueue result counts it (EnqueueResult.rejected). */
  name: string;
  /** The spec's status code the refused rows get (schemas/enums/sms-state.yaml). */
  status: number;
  /** Marks the refused rows; answers how many. */
  apply(trx: Transaction<Database>, ctx: RefusalContext): Promise<number>;
}

/** The UPDATE's head every rule shares; `errorCode` is the channel's own code when the rule speaks
 *  for one (e.g. '131047', a closed WhatsApp window: message-reason.ts reads it). */
export const refuse = (ctx: RefusalContext, status: number, errorCode: string | null = null) =>
  sql`update messages m set state = 'rejected', status_code = ${status}, error_code = ${errorCode}::text, done_at = ${ctx.now}, updated_at = ${ctx.now}`;

/** Block list: entries in force now (added more than 24 h ago and not yet removed). */
const blockList: RefusalRule = {
  name: 'blacklisted',
  status: STATUS.blacklisted,
  async apply(trx, ctx) {
    const result = await sql`${refuse(ctx, STATUS.blacklisted)}
      where ${ctx.mine} and exists (
        select 1 from block_list b where b.company_id = ${ctx.req.companyId} and b.phone = m.to_number
          and ${sql.raw(entryBlocksSql('b', sqlInstant(ctx.now)))})`.execute(trx);
    return Number(result.numAffectedRows ?? 0);
  },
};

/** Duplicates: the same number and text twice in this request, or already sent within the company's window.
 *  A campaign's test never makes a later message a duplicate: testing to your own number does not take it out of the launch;
 *  nor does the run a resend sends again (its messages that did not arrive are the point of it). */
const duplicate: RefusalRule = {
  name: 'duplicate',
  status: STATUS.duplicate,
  async apply(trx, ctx) {
    if (ctx.req.duplicateWindowHours <= 0) return 0;
    const since = new Date(ctx.now.getTime() - ctx.req.duplicateWindowHours * 3_600_000);
    const result = await sql`${refuse(ctx, STATUS.duplicate)}
      where ${ctx.mine} and exists (
        select 1 from messages p where p.company_id = ${ctx.req.companyId} and p.to_number = m.to_number
          and p.created_at >= ${since} and p.id < m.id
          and p.body is not distinct from m.body and p.template is not distinct from m.template
          and p.state not in ('rejected', 'cancelled') and p.source <> 'test'
          ${ctx.req.resendOf ? sql`and p.deployment_id is distinct from ${ctx.req.resendOf}::bigint` : sql``})`.execute(trx);
    return Number(result.numAffectedRows ?? 0);
  },
};

/**
 * A template message with a parameter left empty (a blank cell of the column mapped to it): the
 * provider refuses it, charged, so it never leaves; rejected as a request error (60) with the
 * provider's own code (EMPTY_PARAMETER_CODE), which the campaign's messages read in words.
 */
const emptyParameter: RefusalRule = {
  name: 'emptyParameter',
  status: STATUS.requestError,
  async apply(trx, ctx) {
    const result = await sql`${refuse(ctx, STATUS.requestError, EMPTY_PARAMETER_CODE)}
      where ${ctx.mine} and m.template is not null and (
        exists (select 1 from jsonb_array_elements_text(case when jsonb_typeof(m.template -> 'parameters') = 'array' then m.template -> 'parameters' else '[]'::jsonb end) as p(value)
                where btrim(p.value) = '')
        or exists (select 1 from jsonb_each_text(case when jsonb_typeof(m.template -> 'parameters') = 'object' then m.template -> 'parameters' else '{}'::jsonb end) as p(key, value)
                where btrim(p.value) = ''))`.execute(trx);
    return Number(result.numAffectedRows ?? 0);
  },
};

/**
 * A company that is not active (disabled by the provider's staff, or still in validation) sends
 * nothing: what its schedules, recurrences, flows or staff enqueue for it is refused with 85
 * (client inactive). Its queue was emptied the same way when it was disabled (haltCompany).
 */
const clientInactive: RefusalRule = {
  name: 'clientInactive',
  status: STATUS.clientInactive,
  async apply(trx, ctx) {
    const result = await sql`${refuse(ctx, STATUS.clientInactive)}
      where ${ctx.mine} and exists (select 1 from companies c where c.id = ${ctx.req.companyId} and c.state <> 'active')`.execute(trx);
    return Number(result.numAffectedRows ?? 0);
  },
};

export const refusalRules: readonly RefusalRule[] = [clientInactive, emptyParameter, blockList, duplicate];
