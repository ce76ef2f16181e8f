// Template rows → the API's template entity.
import type { Kysely } from 'kysely';
import type { Template } from '../../../generated/types.gen.ts';
import type { Database } from '../../../engine/database.ts';

export function templateQuery(db: Kysely<Database>, companyId: number) {
  return db
    .selectFrom('templates as t')
    .leftJoin('channels as ch', 'ch.id', 't.channel_id')
    .select([
      't.id', 't.name', 't.channel', 't.purpose', 't.content', 't.variables', 't.category', 't.language', 't.channel_id', 'ch.name as channel_name',
      't.status', 't.rejection_reason', 't.provider_template_id', 't.submitted_at', 't.created_at', 't.updated_at',
    ])
    .where('t.company_id', '=', companyId);
}

export type TemplateRow = Awaited<ReturnType<ReturnType<typeof templateQuery>['executeTakeFirstOrThrow']>>;

export const toTemplate = (r: TemplateRow): Template => ({
  id: r.id,
  name: r.name,
  channel: r.channel as Template['channel'],
  purpose: r.purpose as Template['purpose'],
  content: r.content,
  variables: r.variables,
  category: (r.category ?? null) as Template['category'],
  language: r.language,
  channelId: r.channel_id,
  channelName: r.channel_name ?? null,
  status: r.status as Template['status'],
  rejectionReason: r.rejection_reason,
  providerTemplateId: r.provider_template_id,
  submittedAt: r.submitted_at?.toISOString() ?? null,
  createdAt: r.created_at.toISOString(),
  updatedAt: r.updated_at.toISOString(),
});
