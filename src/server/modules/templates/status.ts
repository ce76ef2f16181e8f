// Meta's review of WhatsApp templates, as its webhook tells it (field
// message_template_status_update, on the route of the channel the template went through; the
// signature is checked before anything reaches here): the event moves the template's status.
//   APPROVED, REINSTATED, UNARCHIVED → APPROVED     REJECTED → REJECTED (with Meta's reason)
//   PAUSED → PAUSED     DISABLED, ARCHIVED, DELETED, PENDING_DELETION → DISABLED     PENDING → PENDING
// Other events (FLAGGED, IN_APPEAL, LOCKED …) leave the status as it is. A template is found by
// Meta's id within the channel's company, or — while its submission's answer is still on its
// way — by name and language. Meta retries deliveries and may deliver late: an event that would
// leave the template as it is changes nothing (not even updated_at), and an event stamped more
// than a minute before the template's last submission belongs to an earlier review and is
// ignored (the minute absorbs the clocks of Meta and ours disagreeing).
import { sql } from 'kysely';
import type { TemplateStatusEvent } from '../../../engine/channels/index.ts';
import type { ServerDeps } from '../../context.ts';
import type { TemplateStatus } from '../../../generated/enums.gen.ts';

const statusOfEvent: Record<string, TemplateStatus> = {
  APPROVED: 'APPROVED',
  REINSTATED: 'APPROVED',
  UNARCHIVED: 'APPROVED',
  REJECTED: 'REJECTED',
  PAUSED: 'PAUSED',
  DISABLED: 'DISABLED',
  ARCHIVED: 'DISABLED',
  DELETED: 'DISABLED',
  PENDING_DELETION: 'DISABLED',
  PENDING: 'PENDING',
};

/** How far before the last submission an event may be stamped and still count (clock skew). */
export const EVENT_SKEW_MS = 60_000;

export function templateStatusSink(deps: Pick<ServerDeps, 'db' | 'now'>) {
  return async (channelId: number, event: TemplateStatusEvent): Promise<void> => {
    const status = statusOfEvent[event.event];
    if (!status) return;
    const channel = await deps.db.selectFrom('channels').select('company_id').where('id', '=', channelId).executeTakeFirst();
    if (!channel) return;
    const base = deps.db.selectFrom('templates').select(['id', 'status', 'rejection_reason', 'status_at', 'submitted_at', 'provider_template_id'])
      .where('company_id', '=', channel.company_id).where('channel', '=', 'whatsapp');
    const row = (await base.where('provider_template_id', '=', event.providerTemplateId).executeTakeFirst())
      ?? (await base.where('provider_template_id', 'is', null).where(sql<string>`lower(name)`, '=', event.name.toLowerCase()).where('language', '=', event.language).executeTakeFirst());
    // A template made outside Colibri (in Meta's own tools) is not ours to track.
    if (!row) return;
    if (row.submitted_at && event.at.getTime() < row.submitted_at.getTime() - EVENT_SKEW_MS) return;
    // Meta's reason says why a template was rejected, paused or disabled; an approval clears it.
    const reason = status === 'APPROVED' || status === 'PENDING' ? null : (event.reason ?? (event.event === status ? null : event.event));
    if (row.status === status && row.rejection_reason === reason && row.provider_template_id === event.providerTemplateId) return;
    // Conditional on what was read: a concurrent edit (a resubmission) wins over this event.
    let update = deps.db.updateTable('templates')
      .set({ status, rejection_reason: reason, provider_template_id: event.providerTemplateId, status_at: event.at, updated_at: deps.now() })
      .where('id', '=', row.id).where('status', '=', row.status);
    update = row.submitted_at ? update.where('submitted_at', '=', row.submitted_at) : update.where('submitted_at', 'is', null);
    await update.execute();
  };
}
