// The help form (schemas/api/help.yaml): a person's request to the provider, with an optional
// attachment kept in the file storage; the staff (role platform) are told in the console and by
// e-mail and read every company's requests, anyone else their own company's. Attachments download
// through a signed link, as report files and vouchers do.
import type { Kysely } from 'kysely';
import { randomBytes } from 'node:crypto';
import { constants } from '../../../generated/constants.gen.ts';
import type { HelpRequest } from '../../../generated/types.gen.ts';
import type { Database } from '../../../engine/database.ts';
import { isStaff, STAFF_ROLE } from '../../auth/staff.ts';
import { fail, failFields, fieldError } from '../../errors/api-error.ts';
import { readUpload } from '../../files/intake.ts';
import { caller, type DomainHandlers } from '../../http/handler.ts';
import { paginate } from '../../http/paging.ts';
import { linkHolds, signLink } from '../../security/signed-links.ts';
import { attachmentType } from './attachment-types.ts';

const LINK_PURPOSE = 'help-attachment';
/** Where an attachment's bytes are kept (the storage's keys are lower-case with an extension). */
const storageKey = (companyId: number, id: string) => `help/${companyId}/${id}.bin`;

function requests(db: Kysely<Database>) {
  return db.selectFrom('help_requests as r')
    .innerJoin('companies as c', 'c.id', 'r.company_id')
    .leftJoin('help_attachments as a', 'a.request_id', 'r.id')
    .select(['r.id', 'r.company_id', 'c.name as company_name', 'r.user_name', 'r.email', 'r.subject', 'r.message', 'r.created_at', 'a.name as attachment_name', 'a.size as attachment_size']);
}

type RequestRow = { id: number; company_id: number; company_name: string; user_name: string; email: string; subject: string; message: string; created_at: Date; attachment_name: string | null; attachment_size: number | null };
const toRequest = (r: RequestRow): HelpRequest => ({
  id: r.id, companyId: r.company_id, companyName: r.company_name, userName: r.user_name, email: r.email, subject: r.subject, message: r.message,
  attachmentName: r.attachment_name, attachmentSize: r.attachment_size, createdAt: new Date(r.created_at).toISOString(),
});

/** The staff who hear of a new request: active users holding the platform role. */
async function staff(db: Kysely<Database>) {
  return db.selectFrom('users as u').innerJoin('user_roles as ur', 'ur.user_id', 'u.id').innerJoin('roles as ro', 'ro.id', 'ur.role_id')
    .select(['u.id', 'u.company_id', 'u.email']).distinct().where('ro.name', '=', STAFF_ROLE).where('u.state', '=', 'active').execute();
}

export const helpHandlers: DomainHandlers<'help'> = {
  'help.uploadAttachment': async (ctx) => {
    const me = caller(ctx);
    const upload = await readUpload(ctx.request, constants.uploads.attachmentBytes);
    const type = attachmentType(upload.fileName, upload.bytes);
    if ('refused' in type) throw failFields([fieldError('file', '99932', type.refused)]);
    const id = randomBytes(16).toString('hex');
    await ctx.deps.storage.writeAt(storageKey(me.companyId, id), 0, upload.bytes);
    await ctx.deps.db.insertInto('help_attachments').values({
      id, company_id: me.companyId, user_id: me.userId, request_id: null, name: upload.fileName, content_type: type.contentType, size: upload.bytes.length, created_at: ctx.deps.now(),
    }).execute();
    return { id, name: upload.fileName, size: upload.bytes.length, contentType: type.contentType };
  },

  'help.createRequest': async (ctx) => {
    const me = caller(ctx);
    const db = ctx.deps.db;
    const subject = ctx.body.subject.trim();
    const message = ctx.body.message.trim();
    const blank = [...(subject ? [] : ['subject']), ...(message ? [] : ['message'])];
    if (blank.length) throw failFields(blank.map((f) => fieldError(f, '99999')));
    const user = await db.selectFrom('users as u').innerJoin('companies as c', 'c.id', 'u.company_id').select(['u.full_name', 'u.email', 'c.name as company_name'])
      .where('u.id', '=', me.userId).executeTakeFirstOrThrow();
    const now = ctx.deps.now();
    const id = await db.transaction().execute(async (trx) => {
      const row = await trx.insertInto('help_requests').values({ company_id: me.companyId, user_id: me.userId, user_name: user.full_name, email: user.email, subject, message, created_at: now })
        .returning('id').executeTakeFirstOrThrow();
      if (ctx.body.attachmentId) {
        // Only the caller's own attachment, once.
        const taken = await trx.updateTable('help_attachments').set({ request_id: row.id })
          .where('id', '=', ctx.body.attachmentId).where('company_id', '=', me.companyId).where('user_id', '=', me.userId).where('request_id', 'is', null).executeTakeFirst();
        if (Number(taken.numUpdatedRows) === 0) throw failFields([fieldError('attachmentId', '99959')]);
      }
      // The staff see it in their notifications at once (spec 2's notifications).
      const team = await staff(trx);
      if (team.length) {
        await trx.insertInto('notifications').values(team.map((s) => ({
          company_id: s.company_id, user_id: s.id, title: `Solicitud de ayuda: ${user.company_name}`.slice(0, 200), message: `${user.full_name}: ${subject}`.slice(0, 500), created_at: now,
        }))).execute();
      }
      return row.id;
    });
    // And by e-mail, after the commit: a mail that fails loses no request.
    for (const s of await staff(db)) {
      await ctx.deps.messages.send({
        channel: 'email', to: s.email, companyId: s.company_id,
        subject: `Solicitud de ayuda de ${user.company_name}: ${subject}`.slice(0, 200),
        body: `${user.full_name} <${user.email}> escribió:\n\n${message}\n\nSolicitud ${id}: la lee en la consola, en Configuración › Solicitudes de ayuda.`,
      }).catch((error: unknown) => ctx.request.log.warn({ err: error }, 'help request: the staff e-mail failed'));
    }
    return toRequest((await requests(db).where('r.id', '=', id).executeTakeFirstOrThrow()) as RequestRow);
  },

  'help.listRequests': async (ctx) => {
    const me = caller(ctx);
    const base = isStaff(me) ? requests(ctx.deps.db) : requests(ctx.deps.db).where('r.company_id', '=', me.companyId);
    return paginate(base, ctx.query, {
      sortable: { createdAt: 'r.created_at' },
      defaultSort: { column: 'r.created_at', order: 'desc' },
      tieBreaker: 'r.id',
      search: ['r.subject', 'c.name'],
      map: (r) => toRequest(r as RequestRow),
    });
  },

  'help.attachmentLink': async (ctx) => {
    const me = caller(ctx);
    let q = ctx.deps.db.selectFrom('help_attachments').select(['request_id', 'company_id']).where('request_id', '=', ctx.params.id);
    if (!isStaff(me)) q = q.where('company_id', '=', me.companyId);
    const row = await q.executeTakeFirst();
    if (!row) throw fail('99959');
    const link = signLink(ctx.deps.secrets, LINK_PURPOSE, `${ctx.params.id}.${row.company_id}`, ctx.deps.now(), constants.reports.downloadLinkMinutes);
    return { url: `/v1/help/requests/${ctx.params.id}/attachment?expires=${link.expires}&signature=${link.signature}`, expiresAt: link.expiresAt };
  },

  'help.attachment': async (ctx) => {
    const row = await ctx.deps.db.selectFrom('help_attachments').selectAll().where('request_id', '=', ctx.params.id).executeTakeFirst();
    // One answer for an attachment that is not there and a link that is wrong.
    if (!row || !linkHolds(ctx.deps.secrets, LINK_PURPOSE, `${ctx.params.id}.${row.company_id}`, ctx.query.expires, ctx.query.signature, ctx.deps.now())) throw fail('99982');
    const chunks: Buffer[] = [];
    for await (const chunk of ctx.deps.storage.read(storageKey(row.company_id, row.id))) chunks.push(chunk as Buffer);
    // The name as the person gave it, quoted safely; never shown inline (a document opens as a download).
    ctx.reply.header('content-disposition', `attachment; filename="${row.name.replace(/[^A-Za-z0-9._ -]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(row.name)}`);
    return { contentType: row.content_type, bytes: Buffer.concat(chunks) };
  },
};

/** Attachments no request named within a day are removed (the form was abandoned). */
export async function removeUnusedAttachments(db: Kysely<Database>, storage: { remove(key: string): Promise<void> }, now: Date): Promise<number> {
  const old = await db.deleteFrom('help_attachments').where('request_id', 'is', null).where('created_at', '<', new Date(now.getTime() - 86_400_000))
    .returning(['id', 'company_id']).execute();
  for (const a of old) await storage.remove(storageKey(a.company_id, a.id)).catch(() => undefined);
  return old.length;
}
