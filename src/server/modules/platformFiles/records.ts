// A processed file as every platform-files answer shows it: its company, account and tool, what
// its validation found, and where it stands (derived, never stored: the campaign made from it, the
// deployment it became, or its validated rows gone).
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../../engine/database.ts';
import type { PlatformFile } from '../../../generated/types.gen.ts';
import { fail } from '../../errors/api-error.ts';

/** A file's rows are lost when they are gone, or when its campaign's recipients are no longer them. */
const LOST = sql<boolean>`(f.recipient_file_id is null or (f.campaign_id is not null and c.recipients_file_id is distinct from f.recipient_file_id))`;

/** The state, as SQL (filters) and as the answer says it. */
export const stateSql = sql<string>`case when f.deployment_id is not null then 'deployed' when ${LOST} then 'lost' when f.campaign_id is not null then 'campaign' else 'validated' end`;

/** Every company's files (a company's when `companyId` is given), with the names they show. */
export function filesQuery(db: Kysely<Database>, companyId: number | null) {
  let q = db.selectFrom('platform_files as f')
    .innerJoin('companies as co', 'co.id', 'f.company_id')
    .innerJoin('sms_accounts as a', 'a.id', 'f.account_id')
    .leftJoin('campaigns as c', (j) => j.onRef('c.id', '=', 'f.campaign_id').onRef('c.company_id', '=', 'f.company_id'))
    .leftJoin('deployments as d', (j) => j.onRef('d.id', '=', 'f.deployment_id').onRef('d.company_id', '=', 'f.company_id'))
    .select([
      'f.id', 'f.company_id', 'co.name as company', 'f.account_id', 'a.name as account', 'f.tool_id', 'f.file_name', 'f.content', 'f.summary',
      'f.recipient_file_id', 'f.campaign_id', 'c.name as campaign', 'f.deployment_id', 'd.state as deployment_state', 'd.total', 'f.created_at',
      stateSql.as('state'),
    ]);
  if (companyId !== null) q = q.where('f.company_id', '=', companyId);
  return q;
}

type FileRow = Awaited<ReturnType<ReturnType<typeof filesQuery>['executeTakeFirstOrThrow']>>;

const count = (summary: Record<string, unknown>, key: string) => (typeof summary[key] === 'number' ? (summary[key] as number) : 0);

export function toPlatformFile(r: FileRow): PlatformFile {
  const s = r.summary as Record<string, unknown>;
  return {
    id: r.id, companyId: r.company_id, company: r.company, accountId: r.account_id, account: r.account, toolId: r.tool_id as PlatformFile['toolId'],
    fileName: r.file_name, content: r.content, rows: count(s, 'rows'), sendable: count(s, 'pass') + count(s, 'warn'), refused: count(s, 'fail') + count(s, 'error'),
    duplicates: count(s, 'duplicates'), state: r.state as PlatformFile['state'], campaignId: r.campaign_id, campaign: r.campaign ?? null,
    deploymentId: r.deployment_id === null ? null : Number(r.deployment_id), deploymentState: (r.deployment_state ?? null) as PlatformFile['deploymentState'],
    total: r.total ?? 0, createdAt: new Date(r.created_at).toISOString(),
  };
}

/** One file: any company's for staff (`companyId` null), else the caller's company's; another's is 99959. */
export async function fileRow(db: Kysely<Database>, companyId: number | null, id: number): Promise<FileRow> {
  const row = await filesQuery(db, companyId).where('f.id', '=', id).executeTakeFirst();
  if (!row) throw fail('99959');
  return row;
}
