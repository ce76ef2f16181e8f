// Channels (schemas/api/channels.yaml): CRUD, enable/disable, statistics and the try-channel test.
// Every query is scoped to the caller's company; another company's channel is "not found".
import type { Kysely } from 'kysely';
import type { ChannelPlatform, DeliveryStatus } from '../../../generated/enums.gen.ts';
import { normalizeColombianPhone } from '../../../core/phone.ts';
import type { ChannelConnector, ChannelEndpoint } from '../../../core/ports/channel.ts';
import { channelDefinitions } from '../../../engine/channels/index.ts';
import type { Database } from '../../../engine/database.ts';
import { ApiError, fail, failFields, fieldError } from '../../errors/api-error.ts';
import { caller, type DomainHandlers } from '../../http/handler.ts';
import { paginate } from '../../http/paging.ts';
import { endpointOf, plainOf, platformColor, presentSecrets, toChannel, type ChannelRow } from './records.ts';
import { nextCredentials, noCredentials, openAccountSids, openSecrets, presenceOf, secretFields, type SecretField } from './credentials.ts';
import { channelConflict, removeChannel, writeRoutes } from './store.ts';
import { sendTestMessage } from './try-send.ts';
import { checkPlatformRules, mergePlain, missingFor, plainCredentialsChanged } from './values.ts';

const TRY_MESSAGE = 'Colibri: mensaje de prueba del canal.';

async function requirePlatform(db: Kysely<Database>, companyId: number, platform: string): Promise<void> {
  const allowed = await db.selectFrom('company_channel_types').select('platform').where('company_id', '=', companyId).where('platform', '=', platform).executeTakeFirst();
  if (!allowed) throw fail('99972');
}

async function loadChannel(db: Kysely<Database>, companyId: number, id: number): Promise<ChannelRow> {
  const row = await db.selectFrom('channels').selectAll().where('id', '=', id).where('company_id', '=', companyId).executeTakeFirst();
  if (!row) throw fail('99959');
  return row;
}

/** 99999 naming every field the channel still needs. */
const missingFields = (fields: string[]) => failFields(fields.map((field) => fieldError(field, '99999')));

async function checkConnection(connector: ChannelConnector, endpoint: ChannelEndpoint): Promise<void> {
  const check = await connector.check(endpoint);
  if (!check.ok) throw fail(check.retryable ? '99965' : '99966');
}

const pickSecrets = (body: Partial<Record<SecretField, string | null>>) =>
  Object.fromEntries(secretFields.map((f) => [f, body[f] ?? null])) as Record<SecretField, string | null>;

/** Turns a unique violation into its catalogue code; anything else goes on unchanged. */
function conflictOr(error: unknown): never {
  if (error instanceof ApiError) throw error;
  throw channelConflict(error) ?? error;
}

export const channelsHandlers: DomainHandlers<'channels'> = {
  'channels.list': async (ctx) => {
    const me = caller(ctx);
    const { platform, type, enabled } = ctx.query;
    let base = ctx.deps.db.selectFrom('channels').selectAll().where('company_id', '=', me.companyId);
    if (platform) base = base.where('platform', '=', platform);
    if (type) base = base.where('type', '=', type);
    if (enabled !== undefined) base = base.where('enabled', '=', enabled);
    return paginate(base, ctx.query, {
      sortable: { name: 'name', platform: 'platform', type: 'type', priority: 'priority', enabled: 'enabled', createdAt: 'created_at' },
      defaultSort: { column: 'name', order: 'asc' },
      tieBreaker: 'id',
      search: ['name', 'sender', 'short_code'],
      map: (row) => toChannel(ctx.deps.secrets, row),
    });
  },

  'channels.platforms': async (ctx) => {
    const me = caller(ctx);
    const rows = await ctx.deps.db.selectFrom('company_channel_types').select('platform').where('company_id', '=', me.companyId).execute();
    // The registered channel types, in the registry's order, that the company may use.
    const offered = channelDefinitions().filter((d) => rows.some((r) => r.platform === d.platform));
    const names = Object.fromEntries(offered.filter((d) => d.names).map((d) => [d.platform, { ...d.names }]));
    return { platforms: offered.map((d) => d.platform as ChannelPlatform), ...(Object.keys(names).length ? { names } : {}) };
  },

  'channels.get': async (ctx) => toChannel(ctx.deps.secrets, await loadChannel(ctx.deps.db, caller(ctx).companyId, ctx.params.id)),

  'channels.create': async (ctx) => {
    const me = caller(ctx);
    const { db, secrets: box, now } = ctx.deps;
    const body = ctx.body;
    await requirePlatform(db, me.companyId, body.platform);
    const plain = mergePlain(body.platform, null, body);
    const credentials = nextCredentials(box, body, noCredentials(), me.companyId).stored;
    checkPlatformRules(body.platform, plain, presenceOf(credentials));
    const enabled = body.enabled === true;
    if (enabled) {
      const missing = missingFor(body.platform, { ...plain, ...pickSecrets(body), accountSids: credentials.accountSids });
      if (missing.length) throw missingFields(missing);
      // Not stored yet: no id, and no connection settings (the API does not set them).
      await checkConnection(ctx.deps.channels, {
        id: 0, companyId: me.companyId, platform: body.platform, sender: plain.sender, shortCode: plain.shortCode, facebookPageId: plain.facebookPageId, clientEmail: plain.clientEmail,
        secrets: presentSecrets(pickSecrets(body)), accountSids: body.accountSids ? body.accountSids.map((s) => ({ sid: s.sid, secret: s.secret })) : [], connection: {},
      });
    }
    const at = now();
    try {
      const row = await db.transaction().execute(async (trx) => {
        const inserted = await trx
          .insertInto('channels')
          .values({
            company_id: me.companyId,
            name: plain.name,
            platform: body.platform,
            type: plain.type,
            sender: plain.sender,
            short_code: plain.shortCode,
            tags: JSON.stringify(plain.tags),
            keywords: JSON.stringify(plain.keywords),
            priority: plain.priority,
            credentials: JSON.stringify(credentials),
            page_access_token_fp: body.pageAccessToken ? box.fingerprint(body.pageAccessToken, 'pageAccessToken') : null,
            facebook_page_id: plain.facebookPageId,
            client_email: plain.clientEmail,
            callback_url: plain.callbackUrl,
            enabled,
            created_at: at,
            updated_at: at,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        await writeRoutes(trx, me.companyId, inserted.id, plain.shortCode, plain.keywords, null);
        return inserted;
      });
      return toChannel(box, row);
    } catch (error) {
      if (error instanceof ApiError) throw error;
      const conflict = channelConflict(error);
      if (conflict) throw conflict;
      // Anything unexpected while storing is the catalogue's "error creating channel" (the detail is logged).
      ctx.request.log.error({ err: error }, 'channel creation failed');
      throw fail('99980');
    }
  },

  'channels.update': async (ctx) => {
    const me = caller(ctx);
    const { db, secrets: box, now } = ctx.deps;
    const body = ctx.body;
    try {
      const row = await db.transaction().execute(async (trx) => {
        const current = await trx.selectFrom('channels').selectAll().where('id', '=', ctx.params.id).where('company_id', '=', me.companyId).forUpdate().executeTakeFirst();
        if (!current) throw fail('99959');
        const platform = current.platform;
        const before = plainOf(current);
        const after = mergePlain(platform, before, body);
        const credentials = nextCredentials(box, body, current.credentials, me.companyId);
        // While enabled, traffic may be flowing with these credentials: disable first (99978).
        if (current.enabled && (credentials.changed || plainCredentialsChanged(before, after))) throw fail('99978');
        checkPlatformRules(platform, after, presenceOf(credentials.stored));
        const tokenChanged = credentials.stored.secrets.pageAccessToken !== current.credentials.secrets?.pageAccessToken;
        const updated = await trx
          .updateTable('channels')
          .set({
            name: after.name,
            type: after.type,
            sender: after.sender,
            short_code: after.shortCode,
            tags: JSON.stringify(after.tags),
            keywords: JSON.stringify(after.keywords),
            priority: after.priority,
            credentials: JSON.stringify(credentials.stored),
            page_access_token_fp: !tokenChanged ? current.page_access_token_fp : body.pageAccessToken ? box.fingerprint(body.pageAccessToken, 'pageAccessToken') : null,
            facebook_page_id: after.facebookPageId,
            client_email: after.clientEmail,
            callback_url: after.callbackUrl,
            updated_at: now(),
          })
          .where('id', '=', current.id)
          .where('company_id', '=', me.companyId)
          .returningAll()
          .executeTakeFirstOrThrow();
        if (after.shortCode !== before.shortCode || after.keywords.join() !== before.keywords.join()) {
          await writeRoutes(trx, me.companyId, current.id, after.shortCode, after.shortCode ? after.keywords : [], before.shortCode);
        }
        return updated;
      });
      return toChannel(box, row);
    } catch (error) {
      return conflictOr(error);
    }
  },

  'channels.delete': async (ctx) => {
    const me = caller(ctx);
    try {
      await ctx.deps.db.transaction().execute(async (trx) => {
        const row = await trx.selectFrom('channels').select(['id', 'enabled', 'short_code']).where('id', '=', ctx.params.id).where('company_id', '=', me.companyId).forUpdate().executeTakeFirst();
        if (!row) throw fail('99959');
        const traffic = await trx.selectFrom('channel_messages').select('id').where('channel_id', '=', row.id).limit(1).executeTakeFirst();
        if (row.enabled || traffic) throw fail('99973');
        await removeChannel(trx, me.companyId, row.id, row.short_code);
      });
    } catch (error) {
      // A message recorded between the check and the delete trips the foreign key: still "has traffic".
      if ((error as { code?: string }).code === '23503') throw fail('99973');
      throw error;
    }
    return { ok: true as const };
  },

  'channels.enable': async (ctx) => {
    const me = caller(ctx);
    const { db, secrets: box } = ctx.deps;
    const row = await loadChannel(db, me.companyId, ctx.params.id);
    if (row.enabled) return toChannel(box, row);
    await requirePlatform(db, me.companyId, row.platform);
    const missing = missingFor(row.platform, { ...plainOf(row), ...openSecrets(box, row.credentials, row.company_id), accountSids: openAccountSids(box, row.credentials, row.company_id) });
    if (missing.length) throw missingFields(missing);
    await checkConnection(ctx.deps.channels, endpointOf(box, row));
    const updated = await db.updateTable('channels').set({ enabled: true, updated_at: ctx.deps.now() }).where('id', '=', row.id).where('company_id', '=', me.companyId).returningAll().executeTakeFirstOrThrow();
    return toChannel(box, updated);
  },

  'channels.disable': async (ctx) => {
    const me = caller(ctx);
    const { db, secrets: box } = ctx.deps;
    const row = await loadChannel(db, me.companyId, ctx.params.id);
    if (!row.enabled) return toChannel(box, row);
    const updated = await db.updateTable('channels').set({ enabled: false, updated_at: ctx.deps.now() }).where('id', '=', row.id).where('company_id', '=', me.companyId).returningAll().executeTakeFirstOrThrow();
    return toChannel(box, updated);
  },

  'channels.stats': async (ctx) => {
    const me = caller(ctx);
    const { db } = ctx.deps;
    const row = await loadChannel(db, me.companyId, ctx.params.id);
    const counts = await db
      .selectFrom('channel_messages')
      .select(['status', (eb) => eb.fn.countAll<string>().as('n')])
      .where('channel_id', '=', row.id)
      .where('company_id', '=', me.companyId)
      .groupBy('status')
      .orderBy('status')
      .execute();
    const count = (...statuses: string[]) => counts.filter((c) => statuses.includes(c.status)).reduce((sum, c) => sum + Number(c.n), 0);
    return {
      channelId: row.id,
      alias: row.name,
      statsCode: row.platform as ChannelPlatform,
      color: platformColor(row.platform),
      total: count(...counts.map((c) => c.status)),
      msgStatus: {
        sent: count('SENT', 'SENT_HO', 'DELIVERED', 'READ'),
        delivered: count('DELIVERED', 'READ'),
        read: count('READ'),
        failed: count('FAILED', 'UNAUTHORIZED', 'TIME_OUT', 'UNDEFINED'),
      },
      statusTypes: counts.map((c) => ({ status: c.status as DeliveryStatus, count: Number(c.n) })),
    };
  },

  'channels.try': async (ctx) => {
    const me = caller(ctx);
    const { db, secrets: box, now } = ctx.deps;
    const row = await loadChannel(db, me.companyId, ctx.params.id);
    const missing = missingFor(row.platform, { ...plainOf(row), ...openSecrets(box, row.credentials, row.company_id), accountSids: openAccountSids(box, row.credentials, row.company_id) });
    if (missing.length) throw missingFields(missing);
    const to = normalizeColombianPhone(ctx.body.to);
    if (!to) throw fail('99963');
    const endpoint = endpointOf(box, row);
    await checkConnection(ctx.deps.channels, endpoint);
    const message = ctx.body.message ?? TRY_MESSAGE;
    const result = await sendTestMessage(ctx.deps.channels, endpoint, to, message);
    const at = now();
    const saved = await db
      .insertInto('channel_messages')
      .values({
        company_id: me.companyId, channel_id: row.id, to_number: to, body: message, status: result.status,
        provider_message_id: result.providerMessageId, error: result.error, is_test: true, created_at: at, updated_at: at,
      })
      .returning(['id', 'created_at'])
      .executeTakeFirstOrThrow();
    return { messageId: saved.id, channelId: row.id, to, status: result.status, error: result.error, createdAt: saved.created_at.toISOString() };
  },
};
