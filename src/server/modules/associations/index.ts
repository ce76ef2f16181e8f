// Associations and responsibles (schemas/api/associations.yaml): platform clients of the caller's
// company, the people responsible for them, and which client/responsible pairs each user works
// under. A user outside the caller's company or scope, or another company's client, answers 99959.
import type { Kysely } from 'kysely';
import type { AssociationDetail, PlatformClient, PlatformResponsible } from '../../../generated/types.gen.ts';
import { isInScope } from '../../auth/user-scope.ts';
import type { Session } from '../../context.ts';
import type { Database } from '../../../engine/database.ts';
import { fail, failFields, fieldError, type FieldError } from '../../errors/api-error.ts';
import { caller, type DomainHandlers } from '../../http/handler.ts';
import { associationsOf } from './queries.ts';

async function assertUserInScope(db: Kysely<Database>, me: Session, userId: number): Promise<void> {
  if (!(await isInScope(db, me, userId))) throw fail('99959');
}

const toResponsible = (r: { id: number; platform_client_id: number; name: string; email: string | null }): PlatformResponsible =>
  r.email ? { id: r.id, platformClientId: r.platform_client_id, name: r.name, email: r.email } : { id: r.id, platformClientId: r.platform_client_id, name: r.name };

const RESPONSIBLE_COLUMNS = ['r.id', 'r.platform_client_id', 'r.name', 'r.email'] as const;

interface OneAssociation { platformClientId: number; platformResponsibleId: number; name?: string }

/**
 * Checks one association of the add and update forms: the responsible is the company's and
 * belongs to the client, and the user does not have that pair already (other than `keep`, the
 * association being changed). Answers the name to store: the one sent, else the responsible's.
 */
async function checkOne(db: Kysely<Database>, companyId: number, userId: number, a: OneAssociation, keep?: number): Promise<string> {
  const responsible = await db
    .selectFrom('platform_responsibles as r')
    .select(RESPONSIBLE_COLUMNS)
    .where('r.company_id', '=', companyId)
    .where('r.id', '=', a.platformResponsibleId)
    .executeTakeFirst();
  if (!responsible) throw failFields([fieldError('platformResponsibleId')]);
  if (responsible.platform_client_id !== a.platformClientId) throw failFields([fieldError('platformClientId')]);
  let twin = db
    .selectFrom('associations')
    .select('id')
    .where('company_id', '=', companyId)
    .where('user_id', '=', userId)
    .where('platform_client_id', '=', a.platformClientId)
    .where('platform_responsible_id', '=', a.platformResponsibleId);
  if (keep !== undefined) twin = twin.where('id', '!=', keep);
  if (await twin.executeTakeFirst()) throw failFields([fieldError('platformResponsibleId', '99931', 'already associated')]);
  return a.name?.trim() || responsible.name;
}

/** The association {associationId} of the user, in the caller's company, or 99959. */
async function ownAssociation(db: Kysely<Database>, companyId: number, userId: number, associationId: number): Promise<AssociationDetail> {
  const found = (await associationsOf(db, companyId, userId)).find((a) => a.id === associationId);
  if (!found) throw fail('99959');
  return found;
}

export const associationsHandlers: DomainHandlers<'associations'> = {
  'associations.getUser': async (ctx) => {
    const me = caller(ctx);
    await assertUserInScope(ctx.deps.db, me, ctx.params.id);
    return associationsOf(ctx.deps.db, me.companyId, ctx.params.id);
  },

  'associations.putUser': async (ctx) => {
    const me = caller(ctx);
    const { db } = ctx.deps;
    const userId = ctx.params.id;
    await assertUserInScope(db, me, userId);
    const wanted = ctx.body.associations;
    const responsibles = wanted.length
      ? await db
          .selectFrom('platform_responsibles as r')
          .select(RESPONSIBLE_COLUMNS)
          .where('r.company_id', '=', me.companyId)
          .where('r.id', 'in', wanted.map((a) => a.platformResponsibleId))
          .execute()
      : [];
    const byId = new Map(responsibles.map((r) => [r.id, r]));
    const errors: FieldError[] = [];
    const seen = new Set<string>();
    wanted.forEach((a, i) => {
      const responsible = byId.get(a.platformResponsibleId);
      const pair = `${a.platformClientId}:${a.platformResponsibleId}`;
      // A responsible belongs to one client: the pair must match, and appear once.
      if (!responsible) errors.push(fieldError(`associations.${i}.platformResponsibleId`));
      else if (responsible.platform_client_id !== a.platformClientId) errors.push(fieldError(`associations.${i}.platformClientId`));
      else if (seen.has(pair)) errors.push(fieldError(`associations.${i}`, '99931', 'listed twice'));
      seen.add(pair);
    });
    if (errors.length) throw failFields(errors);
    await db.transaction().execute(async (trx) => {
      await trx.deleteFrom('associations').where('company_id', '=', me.companyId).where('user_id', '=', userId).execute();
      if (wanted.length) {
        await trx
          .insertInto('associations')
          .values(wanted.map((a) => ({
            company_id: me.companyId,
            user_id: userId,
            platform_client_id: a.platformClientId,
            platform_responsible_id: a.platformResponsibleId,
            name: a.name?.trim() || byId.get(a.platformResponsibleId)!.name,
          })))
          .execute();
      }
    });
    return associationsOf(db, me.companyId, userId);
  },

  'associations.addUser': async (ctx) => {
    const me = caller(ctx);
    const { db } = ctx.deps;
    const userId = ctx.params.id;
    await assertUserInScope(db, me, userId);
    const name = await checkOne(db, me.companyId, userId, ctx.body);
    const { id } = await db
      .insertInto('associations')
      .values({ company_id: me.companyId, user_id: userId, platform_client_id: ctx.body.platformClientId, platform_responsible_id: ctx.body.platformResponsibleId, name })
      .returning('id')
      .executeTakeFirstOrThrow();
    return ownAssociation(db, me.companyId, userId, id);
  },

  'associations.getOne': async (ctx) => {
    const me = caller(ctx);
    await assertUserInScope(ctx.deps.db, me, ctx.params.id);
    return ownAssociation(ctx.deps.db, me.companyId, ctx.params.id, ctx.params.associationId);
  },

  'associations.updateOne': async (ctx) => {
    const me = caller(ctx);
    const { db } = ctx.deps;
    const { id: userId, associationId } = ctx.params;
    await assertUserInScope(db, me, userId);
    await ownAssociation(db, me.companyId, userId, associationId);
    const name = await checkOne(db, me.companyId, userId, ctx.body, associationId);
    await db
      .updateTable('associations')
      .set({ platform_client_id: ctx.body.platformClientId, platform_responsible_id: ctx.body.platformResponsibleId, name })
      .where('company_id', '=', me.companyId)
      .where('user_id', '=', userId)
      .where('id', '=', associationId)
      .execute();
    return ownAssociation(db, me.companyId, userId, associationId);
  },

  'associations.deleteOne': async (ctx) => {
    const me = caller(ctx);
    const { db } = ctx.deps;
    const { id: userId, associationId } = ctx.params;
    await assertUserInScope(db, me, userId);
    const gone = await db
      .deleteFrom('associations')
      .where('company_id', '=', me.companyId)
      .where('user_id', '=', userId)
      .where('id', '=', associationId)
      .executeTakeFirst();
    if (!gone.numDeletedRows) throw fail('99959');
    return { ok: true as const };
  },

  'associations.clientAssociations': async (ctx) => {
    const me = caller(ctx);
    const { db } = ctx.deps;
    const userId = ctx.query.connectinUserId;
    let qb = db.selectFrom('platform_clients as c').select(['c.id', 'c.name', 'c.nit']).where('c.company_id', '=', me.companyId);
    if (userId !== undefined) {
      await assertUserInScope(db, me, userId);
      qb = qb.where(({ exists, selectFrom }) =>
        exists(selectFrom('associations as s').select('s.id').whereRef('s.platform_client_id', '=', 'c.id').where('s.user_id', '=', userId)),
      );
    }
    const rows: PlatformClient[] = await qb.orderBy('c.name').orderBy('c.id').execute();
    return rows;
  },

  'associations.clientAccount': async (ctx) => {
    const me = caller(ctx);
    const userId = ctx.query.connectinUserId ?? me.userId;
    await assertUserInScope(ctx.deps.db, me, userId);
    return associationsOf(ctx.deps.db, me.companyId, userId);
  },

  'associations.listResponsible': async (ctx) => {
    const me = caller(ctx);
    const { db } = ctx.deps;
    const client = await db.selectFrom('platform_clients').select('id').where('company_id', '=', me.companyId).where('id', '=', ctx.params.id).executeTakeFirst();
    if (!client) throw fail('99959');
    const rows = await db
      .selectFrom('platform_responsibles as r')
      .select(RESPONSIBLE_COLUMNS)
      .where('r.company_id', '=', me.companyId)
      .where('r.platform_client_id', '=', client.id)
      .orderBy('r.name')
      .orderBy('r.id')
      .execute();
    return rows.map(toResponsible);
  },

  'associations.allResponsible': async (ctx) => {
    const me = caller(ctx);
    const { db } = ctx.deps;
    const userId = ctx.params.userId;
    await assertUserInScope(db, me, userId);
    const rows = await db
      .selectFrom('platform_responsibles as r')
      .select(RESPONSIBLE_COLUMNS)
      .where('r.company_id', '=', me.companyId)
      .where(({ exists, selectFrom }) =>
        exists(selectFrom('associations as s').select('s.id').whereRef('s.platform_client_id', '=', 'r.platform_client_id').where('s.user_id', '=', userId)),
      )
      .orderBy('r.name')
      .orderBy('r.id')
      .execute();
    return rows.map(toResponsible);
  },
};
