// Health, stored files, the sandbox outbox, inbound door and phone (schemas/api/system.yaml).
import { sql } from 'kysely';
import { sandboxCompanyScope } from '../../auth/sandbox-door.ts';
import { sandboxPhone } from './sandbox-phone.ts';
import { fail } from '../../errors/api-error.ts';
import type { DomainHandlers } from '../../http/handler.ts';
import type { OtpMethod } from '../../../generated/enums.gen.ts';

export const systemHandlers: DomainHandlers<'system'> = {
  // 200 only once the database answers: load balancers and `npm start` scripts wait on this.
  'system.health': async ({ deps }) => {
    await sql`select 1`.execute(deps.db);
    return { status: 'ok', database: 'ok' };
  },

  // Public by design: ids are 32 random characters, so a URL is a capability (works in <img>).
  'system.file': async ({ deps, params }) => {
    const file = await deps.db.selectFrom('files').select(['content_type', 'bytes']).where('id', '=', params.id).executeTakeFirst();
    if (!file) throw fail('99936');
    return { contentType: file.content_type, bytes: file.bytes, cacheSeconds: 3600 };
  },

  // The router has opened the sandbox door (auth/sandbox-door.ts); a company user reads only
  // their own company's mail.
  'system.outbox': async ({ deps, query, session }) => {
    let q = deps.db.selectFrom('sandbox_outbox').select(['id', 'channel', 'to_address', 'subject', 'body', 'created_at']).orderBy('id', 'desc').limit(200);
    const company = sandboxCompanyScope(session);
    if (company !== null) q = q.where('company_id', '=', company);
    if (query.to) q = q.where(sql<string>`lower(to_address)`, '=', query.to.trim().toLowerCase());
    const rows = await q.execute();
    return rows.map((r) => ({
      id: r.id,
      channel: r.channel as OtpMethod,
      to: r.to_address,
      subject: r.subject,
      body: r.body,
      createdAt: new Date(r.created_at).toISOString(),
    }));
  },

  // The router has opened the sandbox door; a company user reads only their own company's messages.
  'system.phone': async ({ deps, query, session }) => sandboxPhone(deps.db, query.number ?? '', sandboxCompanyScope(session)),

  // The router has opened the sandbox door; a company user writes only to their own company's channels.
  'system.inbound': async ({ deps, body, session }) => {
    const company = sandboxCompanyScope(session);
    let q = deps.db.selectFrom('channels').select('id').where('id', '=', body.channelId);
    if (company !== null) q = q.where('company_id', '=', company);
    if (!(await q.executeTakeFirst())) throw fail('99959');
    if (!(await deps.messaging.simulateInbound?.(body.channelId, body.from, body.text))) throw fail('99959');
    return { ok: true as const };
  },
};
