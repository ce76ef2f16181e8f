// API permissions and credentials (schemas/api/credentials.yaml, component 6004): credentials
// shown once, listed masked, revoked and rotated; the authorised IPs, notification e-mail and
// FTP settings. Every query is scoped to the caller's company.
import { formatCidr, parseCidr } from '../../../core/cidr.ts';
import { MASK } from '../../../core/secret-mask.ts';
import type { ApiSettings, Credential } from '../../../generated/types.gen.ts';
import type { ServerDeps } from '../../context.ts';
import type { ApiCredentialsTable, ApiSettingsTable } from '../../../engine/database.ts';
import { fail } from '../../errors/api-error.ts';
import { caller, type DomainHandlers } from '../../http/handler.ts';
import { paginate } from '../../http/paging.ts';
import { issueKey } from '../../security/api-keys.ts';
import { maskOrNull, nextSealed, openSealed } from '../../security/secret-writes.ts';
import type { Selectable } from 'kysely';
import { ensureApiUser, lockSettings } from './api-user.ts';
import { checkFtpForm } from './ftp-settings.ts';
import { ftpPasswordContext } from '../../security/sealing-contexts.ts';
import { notify } from '../../security/credential-notices.ts';

type CredentialRow = Selectable<ApiCredentialsTable>;
type SettingsRow = Selectable<ApiSettingsTable>;

const ftpContext = ftpPasswordContext;

const toCredential = (r: CredentialRow): Credential => ({
  id: r.id,
  name: r.name,
  status: r.revoked_at ? 'revoked' : 'active',
  hint: `${MASK}${r.secret_hint}`,
  createdAt: r.created_at.toISOString(),
  lastUsedAt: r.last_used_at?.toISOString() ?? null,
  revokedAt: r.revoked_at?.toISOString() ?? null,
  replacedBy: r.replaced_by,
  foreignOriginAt: r.foreign_origin_at?.toISOString() ?? null,
  foreignOriginIp: r.foreign_origin_ip,
});

function toSettings(deps: ServerDeps, companyId: number, r: SettingsRow | undefined): ApiSettings {
  return {
    allowedIps: r?.allowed_ips ?? [],
    notificationEmail: r?.notification_email ?? null,
    ftp: {
      host: r?.ftp_host ?? null,
      port: r?.ftp_port ?? null,
      user: r?.ftp_user ?? null,
      directory: r?.ftp_directory ?? null,
      password: maskOrNull(openSealed(deps.secrets, r?.ftp_password ?? null, ftpContext(companyId))),
    },
  };
}

export const credentialsHandlers: DomainHandlers<'credentials'> = {
  'credentials.list': async (ctx) => {
    const me = caller(ctx);
    let base = ctx.deps.db.selectFrom('api_credentials').selectAll().where('company_id', '=', me.companyId);
    if (ctx.query.status === 'active') base = base.where('revoked_at', 'is', null);
    if (ctx.query.status === 'revoked') base = base.where('revoked_at', 'is not', null);
    return paginate(base, ctx.query, {
      sortable: { name: 'name', createdAt: 'created_at', lastUsedAt: 'last_used_at' },
      defaultSort: { column: 'created_at', order: 'desc' },
      tieBreaker: 'id',
      search: ['name', 'id'],
      map: toCredential,
    });
  },

  'credentials.create': async (ctx) => {
    const me = caller(ctx);
    const { db, now } = ctx.deps;
    const key = issueKey();
    const at = now();
    const row = await db.transaction().execute(async (trx) => {
      await ensureApiUser(trx, me.companyId, at);
      return trx
        .insertInto('api_credentials')
        .values({ id: key.id, company_id: me.companyId, name: ctx.body.name.trim(), secret_hash: key.hash, secret_hint: key.hint, created_by: me.userId, created_at: at, last_used_at: null, revoked_at: null, replaced_by: null })
        .returningAll()
        .executeTakeFirstOrThrow();
    });
    await notify(ctx.deps, ctx.request.log, me.companyId, 'creada', row);
    return { credential: toCredential(row), apiKey: key.apiKey };
  },

  'credentials.rotate': async (ctx) => {
    const me = caller(ctx);
    const { db, now } = ctx.deps;
    const key = issueKey();
    const at = now();
    const row = await db.transaction().execute(async (trx) => {
      const old = await trx.selectFrom('api_credentials').selectAll().where('id', '=', ctx.params.id).where('company_id', '=', me.companyId).where('revoked_at', 'is', null).forUpdate().executeTakeFirst();
      if (!old) throw fail('99959');
      const fresh = await trx
        .insertInto('api_credentials')
        .values({ id: key.id, company_id: me.companyId, name: old.name, secret_hash: key.hash, secret_hint: key.hint, created_by: me.userId, created_at: at, last_used_at: null, revoked_at: null, replaced_by: null })
        .returningAll()
        .executeTakeFirstOrThrow();
      await trx.updateTable('api_credentials').set({ revoked_at: at, replaced_by: fresh.id }).where('id', '=', old.id).where('company_id', '=', me.companyId).execute();
      return fresh;
    });
    await notify(ctx.deps, ctx.request.log, me.companyId, 'rotada', row);
    return { credential: toCredential(row), apiKey: key.apiKey };
  },

  'credentials.revoke': async (ctx) => {
    const me = caller(ctx);
    const { db, now } = ctx.deps;
    const row = await db.selectFrom('api_credentials').select(['id', 'name', 'revoked_at']).where('id', '=', ctx.params.id).where('company_id', '=', me.companyId).executeTakeFirst();
    if (!row) throw fail('99959');
    if (row.revoked_at) return { ok: true as const };
    await db.updateTable('api_credentials').set({ revoked_at: now() }).where('id', '=', row.id).where('company_id', '=', me.companyId).where('revoked_at', 'is', null).execute();
    await notify(ctx.deps, ctx.request.log, me.companyId, 'revocada', row);
    return { ok: true as const };
  },

  'credentials.getSettings': async (ctx) => {
    const me = caller(ctx);
    const row = await ctx.deps.db.selectFrom('api_settings').selectAll().where('company_id', '=', me.companyId).executeTakeFirst();
    return toSettings(ctx.deps, me.companyId, row);
  },

  'credentials.updateSettings': async (ctx) => {
    const me = caller(ctx);
    const { db, now, secrets } = ctx.deps;
    const { allowedIps, notificationEmail, ftp } = ctx.body;
    // Stored canonical ("10.0.0.0/8", compressed IPv6), each range once.
    const ranges = [...new Set(allowedIps.map((r) => formatCidr(parseCidr(r)!)))];
    const row = await db.transaction().execute(async (trx) => {
      const current = await lockSettings(trx, me.companyId, now());
      checkFtpForm(ftp, current, ctx.deps.outbound);
      const password = nextSealed(secrets, ftp.password, current.ftp_password, 'ftp.password', ftpContext(me.companyId));
      return trx
        .updateTable('api_settings')
        .set({
          allowed_ips: JSON.stringify(ranges),
          notification_email: notificationEmail?.trim().toLowerCase() ?? null,
          ftp_host: ftp.host?.toLowerCase() ?? null,
          ftp_port: ftp.port,
          ftp_user: ftp.user,
          ftp_directory: ftp.directory,
          ftp_password: password.sealed,
          // Saved settings are tried at the FTP intake's next round (a person who just fixed them, or
          // dropped a file, sees the outcome at once), and the last visit's error is theirs no more.
          ftp_next_visit_at: null,
          ftp_last_error: null,
          updated_at: now(),
        })
        .where('company_id', '=', me.companyId)
        .returningAll()
        .executeTakeFirstOrThrow();
    });
    return toSettings(ctx.deps, me.companyId, row);
  },
};
