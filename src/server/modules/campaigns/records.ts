// Campaign rows → the API's campaign entity, and the content rules every write checks.
import { sql, type Kysely } from 'kysely';
import { contentProblems, lengthProblem } from '../../../core/message-content.ts';
import { capabilitiesOf } from '../../../engine/channels/index.ts';
import { sendMoment, storedPolicy } from '../../../core/send-window.ts';
import type { MessagePurpose } from '../../../generated/enums.gen.ts';
import type { Campaign, CampaignRecurrence } from '../../../generated/types.gen.ts';
import type { Database } from '../../../engine/database.ts';
import { failFields, fieldError } from '../../errors/api-error.ts';
import { mappingFor, parametersOf, plannedAt, upcomingRuns } from '../../../engine/campaigns/index.ts';

export function campaignQuery(db: Kysely<Database>, companyId: number) {
  return db
    .selectFrom('campaigns as c')
    .leftJoin('channels as ch', 'ch.id', 'c.channel_id')
    .leftJoin('templates as t', 't.id', 'c.template_id')
    .select([
      'c.template_id', 't.name as template_name', 't.variables as template_variables', 'c.template_mapping',
      sql<string[] | null>`(select rf.headers from recipient_files rf where rf.id = c.recipients_file_id)`.as('file_columns'),
      'c.id', 'c.name', 'c.kind', 'c.purpose', 'c.channel_id', 'ch.name as channel_name', 'ch.platform', 'c.content', 'c.variables',
      'c.scheduled_at', 'c.recurrence', 'c.next_run_at', 'c.label', 'c.edit_lock', 'c.max_complete_interactions', 'c.flow_id', 'c.recipients_file_id', 'c.created_at', 'c.updated_at',
      sql<number | null>`(select count(*) from recipient_rows r where r.file_id = c.recipients_file_id and r.send)`.as('recipients'),
      sql<unknown>`(select ms.send_window from messaging_settings ms where ms.company_id = c.company_id)`.as('send_window'),
      sql<number | string | null>`(select d.id from deployments d where d.campaign_id = c.id order by d.id desc limit 1)`.as('last_deployment_id'),
      sql<string | null>`(select d.state from deployments d where d.campaign_id = c.id order by d.id desc limit 1)`.as('last_deployment_state'),
      sql<Date | null>`(select max(d.started_at) from deployments d where d.campaign_id = c.id)`.as('last_sent_at'),
      sql<Date | null>`(select max(d.finished_at) from deployments d where d.campaign_id = c.id and d.state = 'completed')`.as('last_processed_at'),
    ])
    .where('c.company_id', '=', companyId);
}

export type CampaignRow = Awaited<ReturnType<ReturnType<typeof campaignQuery>['executeTakeFirstOrThrow']>>;

/** How many of a recurring campaign's next runs its record lists. */
const NEXT_RUNS = 5;

/**
 * When a launch now would plan the campaign's messages (the engine's plannedAt: a scheduled
 * campaign's instant, else now; a recurring campaign's Launch runs it now and its rule the rest),
 * and when they really leave: the engine holds commercial messages outside the company's send
 * window (core/send-window.ts), so every screen that promises a time promises this one, with the
 * reason and the rule in force.
 */
function launchMoment(r: CampaignRow, now: Date): Pick<Campaign, 'firstSendAt' | 'holdReason' | 'holiday' | 'sendRule' | 'launchTiming' | 'nextRuns'> {
  const rule = storedPolicy(r.send_window);
  const purpose = r.purpose as MessagePurpose;
  const moment = sendMoment(plannedAt(r, now), purpose, rule.profile);
  // A recurring campaign's next runs, each at the moment its messages really leave (the scheduler
  // launches at the run's instant; the send window holds commercial messages past it).
  const runs = r.kind === 'recurring' && r.recurrence ? upcomingRuns(r.recurrence as CampaignRecurrence, r.next_run_at, NEXT_RUNS) : [];
  const nextRuns = runs.map((run) => sendMoment(run, purpose, rule.profile).at.toISOString());
  const held = moment.reason !== null;
  const holiday = moment.reason === 'holiday' && moment.holidays.length > 0;
  const timing: Campaign['launchTiming'] = r.kind === 'scheduled'
    ? (holiday ? 'scheduledHoliday' : held ? 'scheduledHeld' : 'scheduled')
    : holiday ? 'holiday' : held ? 'held' : r.kind === 'recurring' ? 'recurring' : 'now';
  return { firstSendAt: moment.at.toISOString(), holdReason: moment.reason, holiday: moment.holidays[0] ?? null, sendRule: rule.name, launchTiming: timing, nextRuns };
}

export const toCampaign = (r: CampaignRow, now: Date): Campaign => ({
  id: r.id,
  name: r.name,
  kind: r.kind as Campaign['kind'],
  purpose: r.purpose as Campaign['purpose'],
  channelId: r.channel_id,
  channelName: r.channel_name ?? null,
  platform: (r.platform ?? null) as Campaign['platform'],
  content: r.content,
  variables: r.variables,
  templateId: r.template_id,
  templateName: r.template_name ?? null,
  templateParameters: parametersOf(r.template_variables ?? []),
  // The columns the launch will use: the person's choices and the file's columns named as a parameter.
  templateMapping: mappingFor(parametersOf(r.template_variables ?? []), r.template_mapping, r.file_columns ?? []),
  fileColumns: r.file_columns ?? [],
  scheduledAt: r.scheduled_at?.toISOString() ?? null,
  ...launchMoment(r, now),
  recurrence: (r.recurrence ?? null) as CampaignRecurrence | null,
  label: r.label as Campaign['label'],
  editLock: r.edit_lock as Campaign['editLock'],
  maxCompleteInteractions: r.max_complete_interactions,
  flowId: r.flow_id,
  recipients: Number(r.recipients ?? 0),
  lastDeploymentId: r.last_deployment_id === null ? null : Number(r.last_deployment_id),
  lastDeploymentState: (r.last_deployment_state ?? null) as Campaign['lastDeploymentState'],
  lastSentAt: r.last_sent_at ? new Date(r.last_sent_at).toISOString() : null,
  lastProcessedAt: r.last_processed_at ? new Date(r.last_processed_at).toISOString() : null,
  createdAt: r.created_at.toISOString(),
  updatedAt: r.updated_at.toISOString(),
});

/** Variables written right ({{name}}, no double braces inside: 99924) and no external links (99925). */
export function checkContent(content: string, shortBaseUrls: string[]): void {
  const problems = contentProblems(content, shortBaseUrls);
  if (!problems.length) return;
  const links = problems.filter((p) => p.code === 'externalLink');
  if (links.length) throw failFields([fieldError('content', '99925', links.map((l) => (l as { text: string }).text).join(', '))]);
  throw failFields([fieldError('content', '99924', problems.map((p) => p.code).join(', '))]);
}

/**
 * Content within the limits: at most constants.limits.messageCharacters characters on any
 * channel (99904) and, on an SMS channel, at most constants.sms.maxParts parts (99903). Refused,
 * never cut: the sender decides what to leave out.
 */
export function checkLength(content: string, platform: string | null): void {
  const problem = lengthProblem(content, platform !== null && capabilitiesOf(platform).segmentedText);
  if (problem?.code === 'tooLong') throw failFields([fieldError('content', '99904', `${problem.characters} > ${problem.max}`)]);
  if (problem?.code === 'tooManyParts') throw failFields([fieldError('content', '99903', `${problem.parts} > ${problem.max}`)]);
}

/** A scheduled campaign needs its date; a recurring one its rule (99999 naming the field). */
export function checkSchedule(kind: string, scheduledAt: string | null | undefined, recurrence: unknown): void {
  if (kind === 'scheduled' && !scheduledAt) throw failFields([fieldError('scheduledAt', '99999')]);
  if (kind === 'recurring' && !recurrence) throw failFields([fieldError('recurrence', '99999')]);
}

/**
 * The template a write keeps: an approved template of the company for the channel's
 * type (else 99931 on templateId). Only a WhatsApp campaign sends its template; on the other
 * channels a template only prefilled the content, so none is kept.
 */
export async function keptTemplate(db: Kysely<Database>, companyId: number, channelId: number, templateId: number | null | undefined, misfit: 'refuse' | 'drop' = 'refuse'): Promise<number | null> {
  if (!templateId) return null;
  const channel = await db.selectFrom('channels').select('platform').where('id', '=', channelId).where('company_id', '=', companyId).executeTakeFirst();
  const template = await db.selectFrom('templates').select(['channel', 'status']).where('id', '=', templateId).where('company_id', '=', companyId).executeTakeFirst();
  const fits = !!template && template.status === 'APPROVED' && template.channel === channel?.platform;
  if (!fits && misfit === 'drop') return null;
  if (!fits) throw failFields([fieldError('templateId', '99931', 'an approved template of the channel\'s type')]);
  return capabilitiesOf(channel!.platform).templates ? templateId : null;
}

