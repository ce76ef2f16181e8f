// The provider's SMS file processor and its deployments (schemas/api/platform-files.yaml): staff
// upload a file for a client company's SMS account, see it judged, make the company's campaign
// from it (Connectin SMS) and deploy it; Eloqua and Responsys files carry their messages and are
// deployed without a campaign. Every file goes through the one recipients intake and the one
// launch (engine/campaigns launchCampaign / launchRecipients): the client company's credits,
// send window, block list and refusal rules apply as to any campaign of theirs.
import { sql, type Kysely, type Transaction } from 'kysely';
import { variablesOf } from '../../../core/message-content.ts';
import { controlDeployment, launchCampaign, launchRecipients } from '../../../engine/campaigns/index.ts';
import type { Database } from '../../../engine/database.ts';
import { constants } from '../../../generated/constants.gen.ts';
import { isStaff, assertStaff, toolCompany } from '../../auth/staff.ts';
import type { ServerDeps, Session } from '../../context.ts';
import { uniqueOr } from '../../db/unique.ts';
import { fail, failFields, fieldError } from '../../errors/api-error.ts';
import { openUpload } from '../../files/intake.ts';
import { caller, type DomainHandlers } from '../../http/handler.ts';
import { paginate } from '../../http/paging.ts';
import { recipientRowsPage } from '../campaigns/recipient-rows-page.ts';
import { checkContent, checkLength } from '../campaigns/records.ts';
import { readRecipients } from '../campaigns/recipients-upload.ts';
import { accountsQuery, toAccount } from '../platformSms/accounts.ts';
import { fileRow, filesQuery, stateSql, toPlatformFile } from './records.ts';

/** The tool whose files become a campaign of the client company (spec 3: Connectin SMS "has campaign"). */
const CAMPAIGN_TOOL = 512;
/** The column a marketing-automation export carries each message in, and the content that sends it. */
export const MESSAGE_COLUMN = 'mensaje';
const MESSAGE_CONTENT = `{{${MESSAGE_COLUMN}}}`;

/** The company's SMS channel a file is sent through: its enabled SMS channel of highest priority (99972 when it has none). */
async function smsChannelOf(db: Kysely<Database>, companyId: number): Promise<number> {
  const channel = await db.selectFrom('channels').select('id').where('company_id', '=', companyId).where('platform', '=', 'sms').where('enabled', '=', true)
    .orderBy('priority', 'desc').orderBy('id').executeTakeFirst();
  if (!channel) throw fail('99972');
  return channel.id;
}

/**
 * The company's SMS account a file is for: the company's (99959 on the field), active, of a client
 * company that is active (99961: a disabled client sends nothing, and its quota is not taken).
 */
async function activeAccount(db: Kysely<Database>, companyId: number, accountId: number) {
  const account = await db.selectFrom('sms_accounts as a').innerJoin('companies as c', 'c.id', 'a.company_id')
    .select(['a.id', 'a.state', 'a.quota', 'a.used', 'c.state as company_state']).where('a.id', '=', accountId).where('a.company_id', '=', companyId).executeTakeFirst();
  if (!account) throw failFields([fieldError('accountId', '99959')]);
  if (account.state !== 'active') throw failFields([fieldError('accountId', '99961', 'the account is inactive')]);
  if (account.company_state !== 'active') throw failFields([fieldError('accountId', '99961', 'the client company is not active')]);
  return account;
}

/** The rows a file's deployment would send (kept by the file's checks, with a number). */
async function sendableRows(db: Kysely<Database>, recipientFileId: number): Promise<number> {
  const counted = await db.selectFrom('recipient_rows').select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('file_id', '=', recipientFileId).where('send', '=', true).where('phone', 'is not', null).executeTakeFirstOrThrow();
  return Number(counted.n);
}

/**
 * Records the deployment on its file and takes its messages from the account's quota, in the
 * launch's own transaction: a second deploy of the file, or a quota another deploy used meanwhile,
 * undoes the whole launch.
 */
function recordDeployment(fileId: number, accountId: number, messages: number) {
  return async (trx: Transaction<Database>, deploymentId: number) => {
    const marked = await trx.updateTable('platform_files').set({ deployment_id: deploymentId }).where('id', '=', fileId).where('deployment_id', 'is', null).executeTakeFirst();
    if (Number(marked.numUpdatedRows) === 0) throw fail('99984');
    const taken = await trx.updateTable('sms_accounts').set({ used: sql<number>`used + ${messages}` })
      .where('id', '=', accountId).where(sql<boolean>`quota - used >= ${messages}`).executeTakeFirst();
    if (Number(taken.numUpdatedRows) === 0) throw failFields([fieldError('accountId', '99986', 'the account\'s quota does not cover the file')]);
  };
}

async function deploy(deps: ServerDeps, me: Session, id: number) {
  const db = deps.db;
  const file = await fileRow(db, null, id);
  if (file.deployment_id !== null) throw fail('99984');
  if (file.state === 'lost' || file.recipient_file_id === null) throw fail('99949');
  if (file.tool_id === CAMPAIGN_TOOL && file.campaign_id === null) throw fail('99985', 'make the file\'s campaign first (addCampaign)');
  const account = await activeAccount(db, file.company_id, file.account_id);
  const messages = await sendableRows(db, file.recipient_file_id);
  if (!messages) throw fail('99949');
  if (account.quota - account.used < messages) throw failFields([fieldError('accountId', '99986', `the account has ${Math.max(account.quota - account.used, 0)} messages left and the file ${messages}`)]);
  // Launched within the client company, recorded as launched by the member of staff who deployed it.
  const author = { companyId: file.company_id, userId: me.userId };
  const record = recordDeployment(file.id, file.account_id, messages);
  if (file.campaign_id !== null) await launchCampaign(deps, author, file.campaign_id, record);
  else {
    await launchRecipients(deps, author, {
      id: null, company_id: file.company_id, content: MESSAGE_CONTENT, purpose: 'commercial', kind: 'open', scheduled_at: null,
      channel_id: await smsChannelOf(db, file.company_id), recipients_file_id: file.recipient_file_id, label: 'Active', template_id: null,
      template_mapping: {}, variables: [MESSAGE_COLUMN], flow_id: null,
    }, record);
  }
  return toPlatformFile(await fileRow(db, null, id));
}

export const platformFilesHandlers: DomainHandlers<'platformFiles'> = {
  'platformFiles.reportFileUpload': async (ctx) => {
    const me = caller(ctx);
    assertStaff(me);
    const db = ctx.deps.db;
    const { companyId, accountId, toolId, content } = ctx.query;
    const missing = (['companyId', 'accountId', 'toolId'] as const).filter((k) => ctx.query[k] === undefined);
    if (toolId === CAMPAIGN_TOOL && content === undefined) missing.push('content' as never);
    if (missing.length) throw failFields(missing.map((k) => fieldError(k, '99999')));
    if (toolId !== CAMPAIGN_TOOL && content !== undefined) throw failFields([fieldError('content', '99931', `the tool's rows carry the message in a column "${MESSAGE_COLUMN}"`)]);
    const company = await db.selectFrom('companies').select('id').where('id', '=', companyId!).executeTakeFirst();
    if (!company) throw failFields([fieldError('companyId', '99959')]);
    await activeAccount(db, companyId!, accountId!);
    if (content !== undefined) {
      checkContent(content, ctx.deps.messaging.shortBaseUrls);
      checkLength(content, 'sms');
    }
    const now = ctx.deps.now();
    const upload = await openUpload(ctx.request, constants.uploads.campaignFileBytes);
    const target = { id: null, company_id: companyId!, content: content ?? MESSAGE_CONTENT, platform: 'sms', templateId: null };
    const { fileId, summary } = await readRecipients(db, { fileName: upload.fileName, input: upload.bytes, field: 'file' }, target, me.userId, now);
    const row = await db.insertInto('platform_files').values({
      company_id: companyId!, account_id: accountId!, tool_id: toolId!, file_name: upload.fileName.slice(0, 255), recipient_file_id: fileId,
      content: content ?? null, summary: JSON.stringify(summary), uploaded_by: me.userId, created_at: now,
    }).returning('id').executeTakeFirstOrThrow();
    return toPlatformFile(await fileRow(db, null, row.id));
  },

  'platformFiles.addCampaign': async (ctx) => {
    const me = caller(ctx);
    assertStaff(me);
    const db = ctx.deps.db;
    const file = await fileRow(db, null, ctx.body.fileId);
    if (file.tool_id !== CAMPAIGN_TOOL) throw failFields([fieldError('fileId', '99931', 'Eloqua and Responsys files are deployed without a campaign')]);
    if (file.campaign_id !== null || file.deployment_id !== null) throw failFields([fieldError('fileId', '99931', 'the file has its campaign already')]);
    if (file.state === 'lost' || file.recipient_file_id === null) throw fail('99949');
    const channelId = await smsChannelOf(db, file.company_id);
    const content = file.content ?? MESSAGE_CONTENT;
    const now = ctx.deps.now();
    await db.transaction().execute(async (trx) => {
      const campaign = await uniqueOr(() => trx.insertInto('campaigns').values({
        company_id: file.company_id, name: ctx.body.name.trim(), kind: 'open', purpose: 'commercial', channel_id: channelId, content,
        variables: JSON.stringify(variablesOf(content)), recipients_file_id: file.recipient_file_id, created_by: null, created_at: now, updated_at: now,
      }).returning('id').executeTakeFirstOrThrow(), () => failFields([fieldError('name', '99926')]));
      await trx.updateTable('recipient_files').set({ campaign_id: campaign.id }).where('id', '=', file.recipient_file_id!).execute();
      const marked = await trx.updateTable('platform_files').set({ campaign_id: campaign.id }).where('id', '=', file.id).where('campaign_id', 'is', null).executeTakeFirst();
      if (Number(marked.numUpdatedRows) === 0) throw failFields([fieldError('fileId', '99931', 'the file has its campaign already')]);
    });
    return toPlatformFile(await fileRow(db, null, file.id));
  },

  'platformFiles.listFiles': async (ctx) => {
    const me = caller(ctx);
    const q = ctx.query;
    const scope = isStaff(me) ? (q.companyId ?? null) : toolCompany(me, q.companyId);
    let base = filesQuery(ctx.deps.db, scope);
    if (q.toolId !== undefined) base = base.where('f.tool_id', '=', q.toolId);
    if (q.state !== undefined) base = base.where(stateSql, '=', q.state);
    return paginate(base, q, {
      sortable: { createdAt: 'f.created_at', fileName: 'f.file_name', company: 'co.name' },
      defaultSort: { column: 'f.created_at', order: 'desc' },
      tieBreaker: 'f.id',
      search: ['f.file_name', 'co.name'],
      map: toPlatformFile,
    });
  },

  'platformFiles.getFile': async (ctx) => {
    const me = caller(ctx);
    return toPlatformFile(await fileRow(ctx.deps.db, isStaff(me) ? null : me.companyId, ctx.params.id));
  },

  'platformFiles.fileRows': async (ctx) => {
    const me = caller(ctx);
    const file = await fileRow(ctx.deps.db, isStaff(me) ? null : me.companyId, ctx.params.id);
    return recipientRowsPage(ctx.deps.db, file.recipient_file_id, ctx.query);
  },

  'platformFiles.deployFile': async (ctx) => {
    const me = caller(ctx);
    assertStaff(me);
    return deploy(ctx.deps, me, ctx.params.id);
  },

  'platformFiles.clientAccounts': async (ctx) => {
    assertStaff(caller(ctx));
    const rows = await accountsQuery(ctx.deps.db, ctx.params.companyId).where('a.state', '=', 'active').orderBy('a.name').orderBy('a.id').execute();
    return rows.map(toAccount);
  },

  'platformFiles.controlFile': async (ctx) => {
    const me = caller(ctx);
    const db = ctx.deps.db;
    const scope = isStaff(me) ? null : me.companyId;
    const file = await fileRow(db, scope, ctx.params.id);
    if (file.deployment_id === null) throw fail('99984');
    await controlDeployment(db, file.company_id, Number(file.deployment_id), ctx.params.action, ctx.deps.now());
    if (ctx.params.action === 'play') ctx.deps.messaging.wake();
    return toPlatformFile(await fileRow(db, scope, file.id));
  },
};
