// The caller's company and the provider's company administration (schemas/api/company.yaml).
// Provider staff are the users holding the `platform` role, in whatever company; the operations
// on every company refuse anyone else with 99982 before reading anything.
import type { Kysely, Updateable } from 'kysely';
import { normalizeColombianPhone } from '../../../core/phone.ts';
import type { Company } from '../../../generated/types.gen.ts';
import type { CompaniesTable, CompanyRow, Database } from '../../../engine/database.ts';
import { haltCompany } from '../../../engine/lifecycle/index.ts';
import { assertStaff } from '../../auth/staff.ts';
import { fail, failFields, fieldError, type FieldError } from '../../errors/api-error.ts';
import { readPictureUpload, storePicture } from '../../files/pictures.ts';
import { caller, type DomainHandlers } from '../../http/handler.ts';
import { paginate } from '../../http/paging.ts';
import { fileUrl } from '../clientAuth/users.ts';

/** The state changes the provider's staff may make (spec 4: validation, active; others disabled). */
const TRANSITIONS: Record<string, readonly string[]> = {
  validation: ['active'],
  active: ['disabled'],
  disabled: ['active'],
};

function toCompany(row: CompanyRow, usersCount?: number): Company {
  const company: Company = {
    id: row.id,
    name: row.name,
    nit: row.nit,
    state: row.state as Company['state'],
    planType: row.plan_type as Company['planType'],
    phone: row.phone,
    address: row.address,
    countryCode: row.country_code,
    regionCode: row.region_code,
    cityCode: row.city_code,
    logoUrl: fileUrl(row.picture_file),
    createdAt: new Date(row.created_at).toISOString(),
  };
  if (usersCount !== undefined) company.usersCount = usersCount;
  return company;
}

async function companyById(db: Kysely<Database>, id: number): Promise<CompanyRow | undefined> {
  return db.selectFrom('companies').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Country, region and city must exist and nest (region in the country, city in the region). */
async function checkPlace(db: Kysely<Database>, place: { country: string | null; region: string | null; city: string | null }): Promise<FieldError[]> {
  const errors: FieldError[] = [];
  if (place.country && !(await db.selectFrom('countries').select('code').where('code', '=', place.country).executeTakeFirst())) errors.push(fieldError('countryCode'));
  if (place.region) {
    const ok = place.country && (await db.selectFrom('regions').select('code').where('country_code', '=', place.country).where('code', '=', place.region).executeTakeFirst());
    if (!ok) errors.push(fieldError('regionCode'));
  }
  if (place.city) {
    const ok = place.country && place.region &&
      (await db.selectFrom('cities').select('code').where('country_code', '=', place.country).where('region_code', '=', place.region).where('code', '=', place.city).executeTakeFirst());
    if (!ok) errors.push(fieldError('cityCode'));
  }
  return errors;
}

export const companyHandlers: DomainHandlers<'company'> = {
  'company.get': async (ctx) => {
    const me = caller(ctx);
    return toCompany((await companyById(ctx.deps.db, me.companyId))!);
  },

  'company.patch': async (ctx) => {
    const me = caller(ctx);
    const { db } = ctx.deps;
    const current = (await companyById(db, me.companyId))!;
    const body = ctx.body;
    const update: Updateable<CompaniesTable> = {};
    if (body.name !== undefined) update.name = body.name.trim();
    if (body.nit !== undefined) update.nit = body.nit;
    if (body.address !== undefined) update.address = body.address.trim();
    if (body.phone !== undefined) {
      const phone = normalizeColombianPhone(body.phone);
      if (!phone) throw fail('99931'); // the schema's phone-co format makes this unreachable
      update.phone = phone;
    }
    // The place is checked as it will be after the change: sending a new country alone must not
    // leave the old country's region behind.
    const country = body.countryCode !== undefined ? body.countryCode.toUpperCase() : current.country_code;
    const region = body.regionCode !== undefined ? (body.regionCode === null ? null : body.regionCode.padStart(2, '0')) : current.region_code;
    const city = body.cityCode !== undefined ? body.cityCode : current.city_code;
    if (body.countryCode !== undefined || body.regionCode !== undefined || body.cityCode !== undefined) {
      const errors = await checkPlace(db, { country, region, city });
      if (errors.length) throw failFields(errors);
      Object.assign(update, { country_code: country, region_code: region, city_code: city });
    }
    const row = await db.updateTable('companies').set(update).where('id', '=', me.companyId).returningAll().executeTakeFirstOrThrow();
    return toCompany(row);
  },

  'company.uploadLogo': async (ctx) => {
    const me = caller(ctx);
    const { db } = ctx.deps;
    const upload = await readPictureUpload(ctx.request);
    const id = await storePicture(db, me.companyId, upload, async (trx, fileId) => {
      const prev = await trx.selectFrom('companies').select('picture_file').where('id', '=', me.companyId).forUpdate().executeTakeFirst();
      await trx.updateTable('companies').set({ picture_file: fileId }).where('id', '=', me.companyId).execute();
      return prev?.picture_file ?? null;
    });
    return { url: fileUrl(id) };
  },

  'company.listAll': async (ctx) => {
    const me = caller(ctx);
    assertStaff(me);
    const f = ctx.query;
    let qb = ctx.deps.db
      .selectFrom('companies as c')
      .selectAll('c')
      .select((eb) => eb.selectFrom('users as u').select(eb.fn.countAll<string>().as('n')).whereRef('u.company_id', '=', 'c.id').as('users_count'));
    if (f.state) qb = qb.where('c.state', '=', f.state);
    if (f.planType) qb = qb.where('c.plan_type', '=', f.planType);
    return paginate(qb, f, {
      sortable: { name: 'c.name', nit: 'c.nit', state: 'c.state', planType: 'c.plan_type', createdAt: 'c.created_at' },
      defaultSort: { column: 'c.id', order: 'asc' },
      tieBreaker: 'c.id',
      search: ['c.name', 'c.nit'],
      map: (row) => toCompany(row, Number(row.users_count ?? 0)),
    });
  },

  'company.setState': async (ctx) => {
    const me = caller(ctx);
    assertStaff(me);
    const { db } = ctx.deps;
    const target = await companyById(db, ctx.params.id);
    if (!target) throw fail('99959');
    const next = ctx.body.state;
    // Staff never switch their own company off (or on) from inside it.
    if (target.id === me.companyId || !TRANSITIONS[target.state]?.includes(next)) throw fail('99927');
    const row = await db.transaction().execute(async (trx) => {
      const updated = await trx
        .updateTable('companies')
        .set({ state: next })
        .where('id', '=', target.id)
        .where('state', '=', target.state) // a concurrent transition wins once
        .returningAll()
        .executeTakeFirst();
      if (!updated) throw fail('99927');
      // Activation ends the "account being verified" wait: users waiting on it reach the full app.
      if (next === 'active') await trx.updateTable('users').set({ state: 'active' }).where('company_id', '=', target.id).where('state', '=', 'validation').execute();
      // A disabled company stops sending now: what waits in its queue is refused with 85.
      if (next === 'disabled') await haltCompany(trx, target.id, ctx.deps.now());
      return updated;
    });
    return toCompany(row);
  },

  'company.setPlan': async (ctx) => {
    const me = caller(ctx);
    assertStaff(me);
    const row = await ctx.deps.db.updateTable('companies').set({ plan_type: ctx.body.planType }).where('id', '=', ctx.params.id).returningAll().executeTakeFirst();
    if (!row) throw fail('99959');
    return toCompany(row);
  },
};
