// The campaign an edit or a new recipients file is for: the caller's company's, unlocked (a lock,
// or a pending change of it, freezes it: 99984). One rule for the console's upload and paste and
// for the files the FTP intake brings (messaging/ftp-intake.ts).
import type { ServerDeps, Session } from '../../context.ts';
import { fail } from '../../errors/api-error.ts';
import type { RecipientsCampaign } from './recipients-upload.ts';

/** Edits need the campaign unlocked (a lock, or a pending change of it, freezes it: 99984). */
export async function editable(deps: ServerDeps, me: Pick<Session, 'companyId'>, id: number) {
  const row = await deps.db.selectFrom('campaigns').selectAll().where('id', '=', id).where('company_id', '=', me.companyId).executeTakeFirst();
  if (!row) throw fail('99959');
  if (row.edit_lock !== 'unlockedForEdit') throw fail('99984');
  return row;
}

/** The campaign whose recipients are replaced (unlocked), with its channel's type (fixed lines). */
export async function recipientsTarget(deps: ServerDeps, me: Pick<Session, 'companyId'>, id: number): Promise<RecipientsCampaign> {
  const row = await editable(deps, me, id);
  const channel = row.channel_id ? await deps.db.selectFrom('channels').select('platform').where('id', '=', row.channel_id).executeTakeFirst() : null;
  return { id: row.id, company_id: me.companyId, content: row.content, platform: channel?.platform ?? null, templateId: row.template_id };
}
