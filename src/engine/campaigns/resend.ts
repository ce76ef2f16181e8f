// Resend (spec 2: a campaign's resend): from a finished run, the messages that did not arrive —
// chosen by state (failed, timeout, undefined, rejected, cancelled) — go again as a new run of the
// same campaign and channel, with its own progress and summary. Each number once: the latest
// message of a number in the run decides (a number one of whose messages was delivered or read is
// never resent), and a number already resent from this run is not resent from it again, whatever
// happened to that resend (resend from the resend's own run instead). The same send step as a
// launch: credits (99986), send window, block list; the run's own messages do not make it a
// duplicate (93), a later message of the same text does.
import { sql } from 'kysely';
import { createDeployment, InsufficientCreditsError, PROCESSED_DEPLOYMENT_STATES, recordDeploymentTotals, type Purpose } from '../lifecycle/index.ts';
import type { ChannelPlatform } from '../channel-adapter.ts';
import { refuse } from '../refused.ts';
import type { Caller, CampaignDeps } from './deps.ts';
import { loadDeployment } from './deployment-control.ts';
import { sendMessages } from './send.ts';

/** The states a resend may choose: the messages that did not arrive. */
export const RESENDABLE_STATES = ['failed', 'unauthorized', 'timeout', 'undefined', 'rejected', 'cancelled'] as const;
export type ResendableState = (typeof RESENDABLE_STATES)[number];

/** A number's messages in a run that reached it (its resend would be a second message). */
const ARRIVED = ['delivered', 'read'];

/** Resends a processed run's messages in `states` as a new run; answers the new run's id. */
export async function resendDeployment(deps: CampaignDeps, me: Caller, deploymentId: number, states: readonly ResendableState[]): Promise<number> {
  const original = await loadDeployment(deps.db, me.companyId, deploymentId);
  const originalId = Number(original.id);
  // Only a finished run: a message still on its way may yet arrive.
  if (!PROCESSED_DEPLOYMENT_STATES.includes(original.state)) throw refuse('99984', 'the run is still sending: resend once it is completed or cancelled');
  const channel = await deps.db.selectFrom('channels').select(['id', 'platform', 'enabled']).where('id', '=', original.channel_id).where('company_id', '=', me.companyId).executeTakeFirst();
  if (!channel || !channel.enabled) throw refuse('99972');
  const rows = await sql<{ to_number: string; body: string | null; template: unknown }>`
    select distinct on (m.to_number) m.to_number, m.body, m.template
    from messages m
    where m.deployment_id = ${original.id} and m.company_id = ${me.companyId}
      and not exists (select 1 from messages a where a.deployment_id = ${original.id} and a.to_number = m.to_number and a.state = any(${ARRIVED}::text[]))
      and not exists (select 1 from deployments d join messages r on r.deployment_id = d.id
                      where d.resend_of = ${original.id} and d.company_id = ${me.companyId} and r.to_number = m.to_number)
    order by m.to_number, m.id desc`.execute(deps.db);
  // The latest message of each number decides its state (a number retried within the run counts once).
  const latest = await sql<{ to_number: string; state: string }>`
    select distinct on (to_number) to_number, state from messages where deployment_id = ${original.id} order by to_number, id desc`.execute(deps.db);
  const stateOf = new Map(latest.rows.map((r) => [r.to_number, r.state]));
  const chosen = rows.rows.filter((r) => (states as readonly string[]).includes(stateOf.get(r.to_number) ?? ''));
  if (!chosen.length) throw refuse('99985', 'no number of the run is in those states (or each was resent from it already)');
  const now = deps.now();
  const purpose = original.purpose as Purpose;
  try {
    const id = await sendMessages<number>(deps, {
      companyId: me.companyId, channel: { id: channel.id, platform: channel.platform as ChannelPlatform }, purpose, source: 'campaign',
      createdBy: me.userId, now, at: now, onInsufficientCredits: 'throw', resendOf: originalId,
    }, async (trx, enqueue) => {
      const created = await createDeployment(trx, { companyId: me.companyId, campaignId: original.campaign_id, channelId: channel.id, purpose, at: now, createdBy: me.userId, now, resendOf: originalId });
      const result = await enqueue(chosen.map((r) => (r.template ? { to: r.to_number, template: r.template as never } : { to: r.to_number, body: r.body ?? '' })), created);
      await recordDeploymentTotals(trx, created, result.ids.length, result.reservedCredits);
      return created;
    });
    deps.messaging.wake();
    return id;
  } catch (error) {
    if (error instanceof InsufficientCreditsError) throw refuse('99986');
    throw error;
  }
}
